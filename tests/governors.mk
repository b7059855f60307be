## tests for governors
check_PROGRAMS += tests/check_teo
tests_check_teo_SOURCES = tests/check_teo.c
tests_check_teo_CFLAGS = $(UNIT_CFLAGS)
tests_check_teo_LDADD = $(UNIT_LIBS)
TESTS += tests/check_teo
check_PROGRAMS += tests/check_menu
tests_check_menu_SOURCES = tests/check_menu.c
tests_check_menu_CFLAGS = $(UNIT_CFLAGS)
tests_check_menu_LDADD = $(UNIT_LIBS)
TESTS += tests/check_menu
