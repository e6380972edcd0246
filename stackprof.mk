# stackprof.mk - a worst-case stack check for a GNU make build
#
# Include it from your Makefile, after your CFLAGS are set:
#
#	CFLAGS = -O2 -Wall
#	include /usr/share/stackprof/stackprof.mk
#	STACK_ELF = myprog
#
# It adds what stackprof needs to CFLAGS (-fstack-usage, and -g unless
# CFLAGS already asks for debug information) and defines one target:
#
#	make stack-check	stackprof --budget $(STACK_BUDGET) $(STACK_ELF)
#
# which builds $(STACK_ELF) first and fails (make exits non-zero) when a
# worst case exceeds the budget, is unbounded, or the input is bad; each
# function over the budget is a GCC-style "file:line:col: error:" line.
# Including it does not change the default goal.
#
# Variables (set them in the Makefile or on the command line):
#	STACK_ELF	the linked program to check (required for stack-check)
#	STACK_BUDGET	bytes, with K, M or G suffixes (default 8K)
#	STACKPROF	the stackprof binary (default: stackprof on PATH)
#	STACKPROF_FLAGS	more options, e.g. --entry main, --annotate FILE,
#			--allow-unbounded (default: none)
#	STACK_CFLAGS	what is added to CFLAGS (see above)
#
# -fstack-usage writes a .su file beside each object; stackprof finds
# them beside each compile unit's source and the ELF.  Add *.su to what
# your clean target removes.

STACKPROF       ?= stackprof
STACK_BUDGET    ?= 8K
STACKPROF_FLAGS ?=

# evaluated once, here: CFLAGS refers to it below
ifeq ($(origin STACK_CFLAGS),undefined)
STACK_CFLAGS := $(if $(filter -fstack-usage,$(CFLAGS)),,-fstack-usage) \
		$(if $(filter-out -g0,$(filter -g%,$(CFLAGS))),,-g)
endif
# override: CFLAGS given on the command line get the flags too
override CFLAGS += $(strip $(STACK_CFLAGS))

# the first target of the including Makefile stays the default goal
stackprof_saved_goal := $(.DEFAULT_GOAL)

stack-check: $(STACK_ELF)
	@test -n "$(STACK_ELF)" || { echo "stackprof.mk: set STACK_ELF to the program to check" >&2; exit 2; }
	$(STACKPROF) $(STACKPROF_FLAGS) --budget $(STACK_BUDGET) $(STACK_ELF)

.PHONY: stack-check
.DEFAULT_GOAL := $(stackprof_saved_goal)
