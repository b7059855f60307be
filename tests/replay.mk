## tests for replay
check_PROGRAMS += tests/check_replay
tests_check_replay_SOURCES = tests/check_replay.c
tests_check_replay_CFLAGS = $(UNIT_CFLAGS)
tests_check_replay_LDADD = $(UNIT_LIBS)
TESTS += tests/check_replay tests/replay-cli.sh
EXTRA_DIST += tests/replay-cli.sh
EXTRA_DIST += tests/bench/run.sh
