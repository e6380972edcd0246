#!/bin/sh
# Soundness against a runtime oracle at -O0, where every leaf keeps its
# locals in the red zone: every sample's entries run on a painted stack;
# each bounded total must be at least the measured peak, and the entries
# tests/oracle/entries.txt calls bounded must be (tests/oracle/run.sh).
. tests/e2e/lib.sh
OPT=-O0
. tests/oracle/run.sh
oracle_check_all
finish
