# stackprof - worst-case stack depth from GCC .su files and the DWARF call graph
#
#   make            build ./stackprof
#   make test       build, then run every unit and end-to-end test; the
#                   end-to-end tests end with "N passed, N failed, N skipped"
#   make demo       build the samples and analyse them
#   make bench      time stackprof on a kernel against its peers (bench/run.sh)
#   make install    PREFIX=/usr/local DESTDIR= (binary, man page, stackprof.mk,
#                   annotations/*.ann, the JSON schema, the CMake package in
#                   lib/cmake/stackprof)
#   make uninstall  the same PREFIX and DESTDIR
#   make V=1        show the commands
#   make fuzz       libFuzzer campaigns, FUZZ_TIME seconds each (clang)
#   make check-asan the suite with -fsanitize=address,undefined
#   make check-valgrind  valgrind memcheck over the samples

VERSION := 0.1.0
PREFIX  ?= /usr/local
CC      ?= cc
O       := build

PKGS        := libelf json-c libcgraph libgvc capstone
PKG_CFLAGS  := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS    := $(shell pkg-config --libs $(PKGS))
# Debian's libdwarf (20210528) ships no pkg-config file
DWARF_CFLAGS := -I/usr/include/libdwarf
DWARF_LIBS   := -ldwarf -lz

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) -I. -Imodel \
	     $(PKG_CFLAGS) $(DWARF_CFLAGS) -DSTACKPROF_VERSION='"$(VERSION)"' -MMD -MP \
	     -DSTACKPROF_SRCDIR='"$(CURDIR)"'
LIBS     := $(DWARF_LIBS) $(PKG_LIBS) -lpthread

ifeq ($(V),1)
Q :=
else
Q := @
endif

LIB_SRCS := $(sort $(wildcard common/*.c model/*.c elf/*.c dwarf/*.c insn/*.c su/*.c callgraph/*.c frames/*.c annotate/*.c \
		indirect/*.c analysis/*.c report/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(O)/%.o)
LIB      := $(O)/libstackprof.a

# shipped annotation files, found by --annotate NAME (annotate/find.c)
ANNOTATIONS := $(sort $(wildcard annotations/*.ann))

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)

BIN     ?= stackprof

all: $(BIN)

$(BIN): $(O)/src/main.o $(O)/src/options.o $(LIB)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS)

$(LIB): $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/tests/%: $(O)/tests/unit/%.o $(LIB)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(shell pkg-config --libs cmocka)

samples: stackprof
	$(Q)$(MAKE) -s -C samples

unit: $(UNIT_BINS)
	$(Q)status=0; for t in $(UNIT_BINS); do echo "== $$t"; $$t || status=1; done; exit $$status

e2e: stackprof samples
	$(Q)sh tests/e2e/run.sh

test: unit e2e

demo: stackprof samples
	./stackprof --top 2 samples/chain/chain
	./stackprof --top 2 samples/recursion/recursion
	./stackprof --top 1 samples/vla/vla

# kernel-scale timings: never part of `make test`
$(O)/bench/dwarfwalk: bench/dwarfwalk.c
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(DWARF_LIBS)

bench: stackprof $(O)/bench/dwarfwalk
	$(Q)sh bench/run.sh

# doc/kernel-6.1.md from Debian's 6.1 cloud debug kernel (fetched once)
kernel-table: stackprof
	$(Q)sh bench/kernel-table.sh

# the CMake package: find_package(stackprof), stackprof_check()
CMAKE_DIR   := $(PREFIX)/lib/cmake/stackprof
CMAKE_FILES := stackprofConfig.cmake stackprofConfigVersion.cmake stackprof-check.sh

$(O)/cmake/stackprofConfigVersion.cmake: cmake/stackprofConfigVersion.cmake.in Makefile
	@mkdir -p $(dir $@)
	$(Q)sed 's/@VERSION@/$(VERSION)/g' $< >$@

install: stackprof $(O)/cmake/stackprofConfigVersion.cmake
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 stackprof $(DESTDIR)$(PREFIX)/bin/stackprof
	install -m 644 doc/stackprof.1 $(DESTDIR)$(PREFIX)/share/man/man1/stackprof.1
	install -d $(DESTDIR)$(PREFIX)/share/stackprof
	install -m 644 stackprof.mk $(DESTDIR)$(PREFIX)/share/stackprof/stackprof.mk
	install -m 644 doc/stackprof.schema.json $(DESTDIR)$(PREFIX)/share/stackprof/
	install -m 644 $(ANNOTATIONS) $(DESTDIR)$(PREFIX)/share/stackprof/
	install -d $(DESTDIR)$(CMAKE_DIR)
	install -m 644 cmake/stackprofConfig.cmake $(O)/cmake/stackprofConfigVersion.cmake \
		$(DESTDIR)$(CMAKE_DIR)/
	install -m 755 cmake/stackprof-check.sh $(DESTDIR)$(CMAKE_DIR)/stackprof-check.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/stackprof \
	      $(DESTDIR)$(PREFIX)/share/man/man1/stackprof.1 \
	      $(DESTDIR)$(PREFIX)/share/stackprof/stackprof.mk \
	      $(DESTDIR)$(PREFIX)/share/stackprof/stackprof.schema.json \
	      $(ANNOTATIONS:annotations/%=$(DESTDIR)$(PREFIX)/share/stackprof/%) \
	      $(CMAKE_FILES:%=$(DESTDIR)$(CMAKE_DIR)/%)
	rmdir $(DESTDIR)$(PREFIX)/share/stackprof 2>/dev/null || true
	rmdir $(DESTDIR)$(CMAKE_DIR) 2>/dev/null || true

clean:
	rm -rf $(O) stackprof
	$(MAKE) -s -C samples clean

# Reliability (tests/fuzz, tests/e2e/t30xx).  The fuzzers and the
# sanitizer build live in their own O= trees, with their own binary.
FUZZERS     := fuzz_su fuzz_annot fuzz_elf fuzz_orc
FUZZ_TIME   ?= 60
FUZZ_O      := build-fuzz
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_O      := build-asan
ASAN_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	       -fno-sanitize-recover=all
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
# full malloc stacks: graphviz and fontconfig have no frame pointers, and
# tests/fuzz/lsan.supp names their functions, not only their files.
# Reports go to ASAN_LOG.PID, so that a test which ignores the exit
# status or stderr cannot hide one; check-asan fails when any is left.
ASAN_LOG    := $(CURDIR)/$(ASAN_O)/sanitizer
ASAN_ENV    := ASAN_OPTIONS=fast_unwind_on_malloc=0:log_path=$(ASAN_LOG) \
	       LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp:print_suppressions=0 \
	       UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(ASAN_LOG)

$(O)/fuzz/%: $(O)/tests/fuzz/%.o $(LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS)

.PRECIOUS: $(O)/tests/fuzz/%.o

fuzz-build:
	$(Q)$(MAKE) -s O=$(FUZZ_O) CC=clang BIN=$(FUZZ_O)/stackprof \
		CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" \
		$(FUZZERS:%=$(FUZZ_O)/fuzz/%)

fuzz: fuzz-build samples
	$(Q)sh tests/fuzz/run.sh $(FUZZ_O) $(FUZZ_TIME) $(FUZZERS)

check-asan:
	$(Q)$(MAKE) -s samples
	$(Q)mkdir -p $(ASAN_O) && rm -f $(ASAN_LOG).*
	$(Q)$(ASAN_ENV) $(MAKE) -s O=$(ASAN_O) BIN=$(ASAN_O)/stackprof CFLAGS="$(ASAN_CFLAGS)" \
		$(ASAN_O)/stackprof unit
	$(Q)$(ASAN_ENV) STACKPROF=$(ASAN_O)/stackprof sh tests/e2e/run.sh
	$(Q)$(ASAN_ENV) sh tests/fuzz/kernel-run.sh $(ASAN_O)/stackprof
	$(Q)! ls $(ASAN_LOG).* >/dev/null 2>&1 || { head -40 $(ASAN_LOG).*; exit 1; }

check-valgrind: stackprof samples
	$(Q)sh tests/fuzz/valgrind.sh ./stackprof

.PHONY: all samples unit e2e test demo bench install uninstall clean fuzz fuzz-build check-asan check-valgrind kernel-table
.DELETE_ON_ERROR:

-include $(shell find $(O) -name '*.d' 2>/dev/null)
