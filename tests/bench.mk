## tests for bench (idlelab live)
check_PROGRAMS += tests/check_live
tests_check_live_SOURCES = tests/check_live.c
tests_check_live_CFLAGS = $(UNIT_CFLAGS) -DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_check_live_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_live_journal
tests_check_live_journal_SOURCES = tests/check_live_journal.c
tests_check_live_journal_CFLAGS = $(UNIT_CFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_check_live_journal_LDADD = $(UNIT_LIBS)
TESTS += tests/check_live tests/check_live_journal tests/live-root.sh \
	tests/live-safety.sh tests/live-soak.sh
EXTRA_DIST += tests/live-root.sh tests/live-safety.sh tests/live-soak.sh tests/fixtures/bench tests/fixtures/sysfs-live
