## tests for cli: the option tables and value parsers of the commands
check_PROGRAMS += tests/check_options
tests_check_options_SOURCES = tests/check_options.c cli/options.c \
	cli/options.h
tests_check_options_CFLAGS = $(UNIT_CFLAGS)
tests_check_options_LDADD = $(UNIT_LIBS)
TESTS += tests/check_options

# Every numeric option of every command against the same hostile values.
TESTS += tests/hostile-numbers.sh
EXTRA_DIST += tests/hostile-numbers.sh

# What every tests/*.sh sources: its checks, SKIP, $T and the lab's start.
EXTRA_DIST += tests/lib.sh
