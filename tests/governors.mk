## tests for governors
##
## Check unit tests of the governor core, ladder and haltpoll (govcore).
check_PROGRAMS += tests/check_govcore tests/check_ladder tests/check_haltpoll
tests_check_govcore_SOURCES = tests/check_govcore.c tests/govtest.h
tests_check_govcore_CFLAGS = $(UNIT_CFLAGS)
tests_check_govcore_LDADD = $(UNIT_LIBS)
tests_check_ladder_SOURCES = tests/check_ladder.c tests/govtest.h
tests_check_ladder_CFLAGS = $(UNIT_CFLAGS)
tests_check_ladder_LDADD = $(UNIT_LIBS)
tests_check_haltpoll_SOURCES = tests/check_haltpoll.c tests/govtest.h
tests_check_haltpoll_CFLAGS = $(UNIT_CFLAGS)
tests_check_haltpoll_LDADD = $(UNIT_LIBS)
TESTS += tests/check_govcore tests/check_ladder tests/check_haltpoll

## decide.  decide-streams.sh runs every tests/decide/GOV-*.in through
## `idlelab decide --governor GOV` (or the spec on the stream's
## "# governor: SPEC" line) and compares with GOV-*.out.  Adding a stream
## needs no change here: the dist-hook below ships the whole directory.
TESTS += tests/decide-streams.sh tests/decide-errors.sh
EXTRA_DIST += tests/decide-streams.sh tests/decide-errors.sh

dist-hook: dist-decide-streams
dist-decide-streams:
	$(MKDIR_P) $(distdir)/tests/decide
	cp -p $(srcdir)/tests/decide/*.in $(srcdir)/tests/decide/*.out \
		$(distdir)/tests/decide/
.PHONY: dist-decide-streams

## menu and teo (their helpers' lines)
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

## differential test against the Python reference model (tests/ref/)
TESTS += tests/governors-diff.sh
EXTRA_DIST += tests/governors-diff.sh tests/ref/govref.py \
	tests/ref/gen_streams.py tests/ref/README.md tests/ref/divergences

## governor plugins: native, kernel-source builds, containment
TESTS += tests/plugin-cli.sh tests/plugin-contain.sh
EXTRA_DIST += tests/plugin-cli.sh tests/plugin-contain.sh tests/plugins
