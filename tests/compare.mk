## tests for compare/report
check_PROGRAMS += tests/check_compare
tests_check_compare_SOURCES = tests/check_compare.c
tests_check_compare_CFLAGS = $(UNIT_CFLAGS)
tests_check_compare_LDADD = $(UNIT_LIBS)
TESTS += tests/check_compare tests/compare-cli.sh tests/compare-scale.sh
EXTRA_DIST += tests/compare-cli.sh tests/compare-scale.sh tests/fixtures/results/live-small.json \
	tests/fixtures/results/bad-config.json \
	tests/fixtures/results/bad-syntax.json \
	tests/fixtures/results/live-small.mmtests.txt \
	tests/fixtures/results/live-small.normalized.txt
