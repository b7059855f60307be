#!/usr/bin/env bash
# Build the libFuzzer targets in their own clang build and run each one.
#
#   FUZZ_SECONDS   time per target (default 60)
#   FUZZ_TARGETS   which targets (default: every tests/fuzz/fuzz_*.c)
#   FUZZ_BUILDDIR  the clang build (default: ./fuzz-build under the
#                  current directory, i.e. the build tree for `make fuzz`)
#   FUZZ_PARALLEL  targets run at the same time (default: nproc)
#   FUZZ_KEEP      if set, the corpus grown by a run is kept in
#                  $FUZZ_BUILDDIR/corpus/TARGET (it is always reused)
#
# tests/fuzz/TARGET.options, if present, holds more libFuzzer flags for
# the timed run of TARGET, one a line ('#' starts a comment).  Leaks in
# system libraries are suppressed by tests/fuzz/lsan.supp.
#
# The regression inputs (tests/fuzz/regressions/TARGET-*) are replayed
# first; any crash, leak or UB report fails the run and leaves the input
# in $FUZZ_BUILDDIR/artifacts/.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
fz=$src/tests/fuzz
secs=${FUZZ_SECONDS:-60}
bdir=${FUZZ_BUILDDIR:-$(pwd)/fuzz-build}
par=${FUZZ_PARALLEL:-$(nproc)}
san='-fsanitize=address,undefined -fno-sanitize-recover=all'
export LSAN_OPTIONS="suppressions=$fz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
cflags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link $san"

command -v clang >/dev/null || {
	echo "fuzz: clang not found (Debian: clang libclang-rt-14-dev)" >&2
	exit 1
}
if [ -z "${FUZZ_TARGETS:-}" ]; then
	FUZZ_TARGETS=$(cd "$fz" && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')
fi

# 1. the library, built by clang with coverage instrumentation
mkdir -p "$bdir"
if [ ! -f "$bdir/Makefile" ]; then
	cfg_src=$src
	if [ -f "$src/config.status" ]; then
		# configured in place: automake allows no second build from
		# there, so build from a copy of the tracked files
		echo "fuzz: $src is configured in place; copying its files"
		mkdir -p "$bdir/src"
		(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$bdir/src")
		(cd "$bdir/src" && autoreconf -fi >/dev/null 2>&1)
		cfg_src=$bdir/src
	fi
	echo "fuzz: configuring $bdir"
	(cd "$bdir" && "$cfg_src/configure" CC=clang CFLAGS="$cflags" \
		>configure.log 2>&1) || {
		cat "$bdir/configure.log" >&2
		exit 1
	}
fi
make -s -C "$bdir" -j"$(nproc)" libidlelab.a >"$bdir/make.log" 2>&1 || {
	cat "$bdir/make.log" >&2
	exit 1
}
libs=$(make -s -C "$bdir" fuzz-print-libs | sed 's/libidlelab\.a//')
incs=$(make -s -C "$bdir" fuzz-print-cppflags)

# 2. the targets
mkdir -p "$bdir/artifacts" "$bdir/logs"
for t in $FUZZ_TARGETS; do
	# shellcheck disable=SC2086 # word splitting of flag lists is wanted
	clang $cflags -fsanitize=fuzzer -I"$bdir" $incs -I"$fz" \
		-o "$bdir/fuzz_$t" "$fz/fuzz_$t.c" "$bdir/libidlelab.a" $libs
done

# 3. regressions, then a timed run of each target

# With -ignore_crashes (TARGET.options), every crash input is replayed:
# one whose first frame outside the sanitizer runtime is in idlelab's
# sources fails the run; the others are the library's, counted.
triage() {
	local t=$1 a frame ours=0 lib=0

	shopt -s nullglob
	for a in "$bdir/artifacts/$t-"*; do
		frame=$("$bdir/fuzz_$t" -timeout=10 "$a" 2>&1 |
			grep -E '^ +#[0-9]+ 0x[0-9a-f]+ in ' |
			grep -v "(${bdir}/fuzz_$t+" | head -1)
		case $frame in
		*" $src/"*)
			echo "fuzz: $t: $a crashes in idlelab: $frame" >&2
			ours=$((ours + 1)) ;;
		*) lib=$((lib + 1)) ;;
		esac
	done
	shopt -u nullglob
	echo "fuzz: $t: $lib crash inputs in libraries, $ours in idlelab"
	[ "$ours" -eq 0 ]
}

run_one() {
	local t=$1 corpus=$bdir/corpus/$1 log=$bdir/logs/$1.log
	local regs=() opts=() stats rc

	mkdir -p "$corpus"
	shopt -s nullglob
	regs=("$fz"/regressions/"$t"-*)
	shopt -u nullglob
	if [ ${#regs[@]} -gt 0 ] &&
	   ! "$bdir/fuzz_$t" -close_fd_mask=3 "${regs[@]}" \
		>"$bdir/logs/$t.regressions.log" 2>&1; then
		echo "fuzz: $t: a regression input fails:" >&2
		tail -40 "$bdir/logs/$t.regressions.log" >&2
		return 1
	fi
	if [ -f "$fz/$t.options" ]; then
		mapfile -t opts < <(sed 's/#.*//; /^[[:space:]]*$/d' \
			"$fz/$t.options")
	fi
	rc=0
	"$bdir/fuzz_$t" -max_total_time="$secs" -close_fd_mask=3 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$bdir/artifacts/$t-" "${opts[@]}" \
		"$corpus" "$fz/corpus/$t" >"$log" 2>&1 || rc=$?
	if printf '%s\n' "${opts[@]}" | grep -q '^-ignore_crashes=1'; then
		# exits 1 after any crash input: the triage decides
		rc=0
		triage "$t" || rc=1
	fi
	if [ $rc -ne 0 ]; then
		echo "fuzz: $t: FAILED (input in $bdir/artifacts/):" >&2
		grep -v '^#[0-9]' "$log" | tail -60 >&2
		return 1
	fi
	# the last status line: "#N ... cov: C ft: F corp: K/S" in-process,
	# "#N: cov: C ft: F corp: K exec/s ... oom/timeout/crash: ..." with
	# -fork
	stats=$(grep -E '^#[0-9]+' "$log" | tail -1)
	echo "fuzz: $t: ok, $(echo "$stats" | grep -oE '^#[0-9]+' |
		tr -d '#') execs in ${secs}s," \
		"$(echo "$stats" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+(/[0-9a-zA-Z]+)?')" \
		"$(echo "$stats" | grep -oE 'oom/timeout/crash: [0-9/]+')"
}

fail=0
pids=()
for t in $FUZZ_TARGETS; do
	run_one "$t" &
	pids+=($!)
	if [ ${#pids[@]} -ge "$par" ]; then
		wait "${pids[0]}" || fail=1
		pids=("${pids[@]:1}")
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || fail=1
done
exit $fail
