## tests for traces

check_PROGRAMS += tests/check_trace_format
tests_check_trace_format_SOURCES = tests/check_trace_format.c
tests_check_trace_format_CFLAGS = $(UNIT_CFLAGS)
tests_check_trace_format_LDADD = $(UNIT_LIBS)
TESTS += tests/check_trace_format
