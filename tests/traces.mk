## tests for traces

check_PROGRAMS += tests/check_trace_format
tests_check_trace_format_SOURCES = tests/check_trace_format.c \
	tests/check_trace_format.h
tests_check_trace_format_CFLAGS = $(UNIT_CFLAGS)
tests_check_trace_format_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_trace_damage
tests_check_trace_damage_SOURCES = tests/check_trace_damage.c \
	tests/check_trace_format.h
tests_check_trace_damage_CFLAGS = $(UNIT_CFLAGS)
tests_check_trace_damage_LDADD = $(UNIT_LIBS)
TESTS += tests/check_trace_format tests/check_trace_damage

check_PROGRAMS += tests/check_synth
tests_check_synth_SOURCES = tests/check_synth.c
tests_check_synth_CFLAGS = $(UNIT_CFLAGS)
tests_check_synth_LDADD = $(UNIT_LIBS)
TESTS += tests/check_synth tests/synth-info-cli.sh
EXTRA_DIST += tests/synth-info-cli.sh tests/trace-writer.py

# Import and record (helper tracein).
check_PROGRAMS += tests/check_model
tests_check_model_SOURCES = tests/check_model.c tests/model-events.h
tests_check_model_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_infer
tests_check_model_infer_SOURCES = tests/check_model_infer.c \
	tests/model-events.h
tests_check_model_infer_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_infer_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_import
tests_check_model_import_SOURCES = tests/check_model_import.c \
	tests/model-events.h
tests_check_model_import_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_import_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_clock
tests_check_model_clock_SOURCES = tests/check_model_clock.c \
	tests/model-events.h
tests_check_model_clock_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_clock_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_irq
tests_check_model_irq_SOURCES = tests/check_model_irq.c tests/model-events.h
tests_check_model_irq_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_irq_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_x86
tests_check_model_x86_SOURCES = tests/check_model_x86.c tests/model-events.h
tests_check_model_x86_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_x86_LDADD = $(UNIT_LIBS)
check_PROGRAMS += tests/check_model_probe
tests_check_model_probe_SOURCES = tests/check_model_probe.c \
	tests/model-events.h
tests_check_model_probe_CFLAGS = $(UNIT_CFLAGS)
tests_check_model_probe_LDADD = $(UNIT_LIBS)
TESTS += tests/check_model tests/check_model_infer tests/check_model_import \
	tests/check_model_clock tests/check_model_irq tests/check_model_x86 \
	tests/check_model_probe \
	tests/import-cli.sh tests/record-root.sh
EXTRA_DIST += tests/import-cli.sh tests/record-root.sh tests/fixtures/import

# record's BTF reader (traces/record/btf.c) on a blob built by hand.
check_PROGRAMS += tests/check_btf
tests_check_btf_SOURCES = tests/check_btf.c
tests_check_btf_CFLAGS = $(UNIT_CFLAGS)
tests_check_btf_LDADD = $(UNIT_LIBS)
TESTS += tests/check_btf

# The text reader in chunks on two threads reads as one sequential read.
TESTS += tests/import-chunks.sh
EXTRA_DIST += tests/import-chunks.sh

# The import benchmark of `make bench` (tests/bench/run.sh) and its input.
EXTRA_DIST += tests/bench/import.sh tests/bench/repeat.awk \
	tests/bench/menu-pingpong.txt.xz

# Replay fidelity on fresh captures of this host (root only).  It
# switches the governor, as live-root.sh does: never both at once.
check_PROGRAMS += tests/idle-workload
tests_idle_workload_SOURCES = tests/idle-workload.c traces/record/btf.c \
	lib/error.c
tests_idle_workload_LDADD = -lm
TESTS += tests/fidelity-root.sh
EXTRA_DIST += tests/fidelity-root.sh
tests/fidelity-root.log: tests/live-root.log
