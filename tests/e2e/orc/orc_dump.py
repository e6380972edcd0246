#!/usr/bin/env python3
"""orc_dump.py ELF: a linked x86-64 kernel's ORC table in the format of
`objtool --dump=orc` (tools/objtool/orc_dump.c of Linux 6.1), read here
from the ELF directly: for a vmlinux that keeps .rela.orc_unwind_ip
(--emit-relocs), objtool prints the relocations' symbols, which no longer
match the rows once the build has sorted the table.  Only the section
headers and the two sections are read, so a 600 MB vmlinux takes a
second.  Feeds dump_frames.py (t2130)."""
import struct
import sys

REGS = {1: "prevsp", 2: "dx", 3: "di", 4: "bp", 5: "sp", 6: "r10", 7: "r13"}
TYPES = {0: "call", 1: "regs", 2: "regs (partial)"}


def reg(r, off):
    if r == 8:
        return "(bp%+d)" % off
    if r == 9:
        return "(sp)%+d" % off
    if r == 0:
        return "(und)"
    return "%s%+d" % (REGS.get(r, "?"), off)


f = open(sys.argv[1], "rb")
eh = f.read(64)
if eh[:4] != b"\x7fELF" or eh[4] != 2 or eh[5] != 1:
    sys.exit("orc_dump.py: not a 64-bit little-endian ELF")
shoff, = struct.unpack_from("<Q", eh, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", eh, 0x3a)
f.seek(shoff)
raw = f.read(shentsize * shnum)
shdrs = [struct.unpack_from("<IIQQQQIIQQ", raw, i * shentsize) for i in range(shnum)]
f.seek(shdrs[shstrndx][4])
names = f.read(shdrs[shstrndx][5])
sec = {}
for h in shdrs:
    sec[names[h[0]:names.index(b"\0", h[0])].decode()] = h


def contents(name):
    h = sec[name]
    f.seek(h[4])
    return h[3], f.read(h[5])


ip_addr, ips = contents(".orc_unwind_ip")
_, orc = contents(".orc_unwind")
n = len(ips) // 4
if len(ips) % 4 or len(orc) != 6 * n:
    sys.exit("orc_dump.py: the two sections do not hold as many entries")
out = []
for i in range(n):
    ip = ip_addr + 4 * i + struct.unpack_from("<i", ips, 4 * i)[0]
    sp_off, bp_off, flags = struct.unpack_from("<hhH", orc, 6 * i)
    out.append("%x: sp:%s bp:%s type:%s end:%d" % (
        ip, reg(flags & 15, sp_off), reg((flags >> 4) & 15, bp_off),
        TYPES.get((flags >> 8) & 3, "?"), (flags >> 10) & 1))
print("\n".join(out))
