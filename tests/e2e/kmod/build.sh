#!/bin/sh
# build.sh DIR: build the module test programs in DIR (t2100, t2110):
# kernel (an executable), mod.ko (mod_a.o + mod_b.o by ld -r) and
# other.ko, the modules with -ffunction-sections as the kernel's are,
# all with -mno-red-zone as the kernel (so no red zone is added).
# KMOD_CFLAGS adds flags, e.g. the kernel's return thunks:
# "-DRETHUNK -mfunction-return=thunk-extern".
set -e
src=$(dirname "$0")
flags="-O2 -g -fno-optimize-sibling-calls -mno-red-zone -fstack-usage -fcallgraph-info=su,da ${KMOD_CFLAGS:-}"
cp "$src"/*.c "$1"/
cd "$1"
gcc $flags -c kernel.c
gcc kernel.o -o kernel
gcc $flags -ffunction-sections -c mod_a.c
gcc $flags -ffunction-sections -c mod_b.c
ld -r mod_a.o mod_b.o -o mod.ko
gcc $flags -ffunction-sections -c other.c -o other.ko
