## tests for hardening: bad input, bounded memory, atomic writes, fuzzing

TESTS += tests/bad-input.sh tests/bounded-memory.sh tests/atomic-write.sh \
	tests/text-safety.sh tests/nothing-lost.sh tests/output-targets.sh
dist_doc_DATA += doc/hardening.md
EXTRA_DIST += tests/bad-input.sh tests/bounded-memory.sh \
	tests/atomic-write.sh tests/text-safety.sh tests/nothing-lost.sh \
	tests/output-targets.sh tests/bad-input tests/fuzz \
	.ci/hardening

# tests/bad-input is a directory of inputs, not a program made from
# tests/bad-input.sh: without a rule of its own, make's built-in ".sh:"
# rule would try to write the script over it whenever the script is the
# newer of the two (make dist then fails).
tests/bad-input: ; @:

# `make fuzz`: build the libFuzzer targets with clang in $(FUZZ_BUILDDIR)
# and run each for $(FUZZ_SECONDS) (see doc/hardening.md).
FUZZ_BUILDDIR = $(abs_top_builddir)/fuzz-build
fuzz:
	FUZZ_BUILDDIR='$(FUZZ_BUILDDIR)' $(SHELL) $(top_srcdir)/tests/fuzz/run.sh

# run.sh asks the clang build for these
fuzz-print-libs:
	@echo $(IDLELAB_LIBS)
fuzz-print-cppflags:
	@echo $(DEFS) $(DEFAULT_INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) \
		$(TRACEFS_CFLAGS) $(TRACECMD_CFLAGS) $(JANSSON_CFLAGS) \
		$(GSL_CFLAGS)

clean-local: clean-fuzz
clean-fuzz:
	rm -rf '$(FUZZ_BUILDDIR)'
.PHONY: fuzz-print-libs fuzz-print-cppflags clean-fuzz
