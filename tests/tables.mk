## tests for tables
check_PROGRAMS += tests/check_tables
tests_check_tables_SOURCES = tests/check_tables.c
tests_check_tables_CFLAGS = $(UNIT_CFLAGS)
tests_check_tables_LDADD = $(UNIT_LIBS)
TESTS += tests/check_tables tests/states-cli.sh tests/states-cpupower.sh
EXTRA_DIST += tests/states-cli.sh tests/states-cpupower.sh \
	tests/fixtures/sysfs-skl tests/fixtures/sysfs-haltpoll \
	tests/fixtures/tables
