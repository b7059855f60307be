## tests for replay
check_PROGRAMS += tests/check_replay
tests_check_replay_SOURCES = tests/check_replay.c tests/check_replay.h
tests_check_replay_CFLAGS = $(UNIT_CFLAGS)
tests_check_replay_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_replay_agree
tests_check_replay_agree_SOURCES = tests/check_replay_agree.c \
	tests/check_replay.h
tests_check_replay_agree_CFLAGS = $(UNIT_CFLAGS)
tests_check_replay_agree_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_replay_stats
tests_check_replay_stats_SOURCES = tests/check_replay_stats.c \
	tests/check_replay.h
tests_check_replay_stats_CFLAGS = $(UNIT_CFLAGS)
tests_check_replay_stats_LDADD = $(UNIT_LIBS)
TESTS += tests/check_replay tests/check_replay_agree tests/check_replay_stats \
	tests/replay-cli.sh

check_PROGRAMS += tests/check_sweep
tests_check_sweep_SOURCES = tests/check_sweep.c
tests_check_sweep_CFLAGS = $(UNIT_CFLAGS)
tests_check_sweep_LDADD = $(UNIT_LIBS)
TESTS += tests/check_sweep tests/sweep-cli.sh tests/slurm-root.sh
EXTRA_DIST += tests/replay-cli.sh tests/sweep-cli.sh tests/slurm-root.sh
EXTRA_DIST += tests/bench/run.sh
