"""dwarf_asm.py - read the assembly `gcc -S -g -dA` writes, which has a
comment per DIE and per attribute, for the scripts that edit its DWARF
(dwarf_mutate.py, call_type.py)."""
import re

die_re = re.compile(r"^(\s*\.uleb128\s+)(0x[0-9a-f]+)(\s+# \(DIE \((0x[0-9a-f]+)\) (DW_TAG_\w+)\))")
attr_re = re.compile(r"^(\s*\.(?:long|4byte)\s+)(0x[0-9a-f]+)(\s+# (DW_AT_\w+).*)$")
name_re = re.compile(r'# DW_AT_name: "(\w+)"|"(\w+)\\0"\s+# DW_AT_name')


def dies(lines):
    """The DIEs in order: line index, abbreviation code, offset, tag,
    {reference attribute: line index}, name."""
    out, cur = [], None
    for i, l in enumerate(lines):
        m = die_re.match(l)
        if m:
            cur = {"line": i, "code": int(m.group(2), 16), "off": int(m.group(4), 16),
                   "tag": m.group(5), "attrs": {}, "name": None}
            out.append(cur)
            continue
        if cur is None:
            continue
        m = attr_re.match(l)
        if m:
            cur["attrs"].setdefault(m.group(4), i)
        m = name_re.search(l)
        if m and cur["name"] is None:
            cur["name"] = m.group(1) or m.group(2)
    return out


def ref(lines, d, attr):
    """The value of D's reference attribute ATTR."""
    return int(attr_re.match(lines[d["attrs"][attr]]).group(2), 16)


def setref(lines, d, attr, value, comment=None):
    """Set D's reference attribute ATTR to VALUE (and rename it COMMENT)."""
    i = d["attrs"][attr]
    m = attr_re.match(lines[i])
    tail = "\t# " + comment if comment else m.group(3)
    lines[i] = "%s%#x%s" % (m.group(1), value, tail)
