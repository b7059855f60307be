#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: the machine, then import speed beside reference tools
# (tests/bench/import.sh; BENCH_IMPORT=0 leaves it out), then replay
# speed beside its reference: `idlelab replay --bare`, each governor's
# select+reflect loop alone over the same periods decoded into memory,
# in the same binary (doc/performance.md).  The replay input is a large synthetic trace made
# with `idlelab synth` at bench time.  Each timed command runs BENCH_RUNS
# times (default 5), alternating with its reference, and the fastest run
# of each counts; peak RSS comes from one more run under /usr/bin/time.
# Run by bash where there is one (`make bench`): its clock needs no
# process per reading.
#
# Environment: IDLELAB (default ./idlelab), BENCH_SECONDS (synth duration per CPU, default 150 s
# of a 20 kHz interrupt workload plus timers, about 2.6 M periods per
# CPU), BENCH_GOVERNORS (default menu teo ladder haltpoll oracle),
# BENCH_JOBS (default: the number of CPUs, at least 2), BENCH_RUNS,
# BENCH_SYNTHETIC (periods per CPU of the in-memory runs, 0: none).
set -u
LC_ALL=C
export LC_ALL
IDLELAB=${IDLELAB:-./idlelab}
RUNS=${BENCH_RUNS:-5}
SECS=${BENCH_SECONDS:-150}
GOVS=${BENCH_GOVERNORS:-menu teo ladder haltpoll oracle}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JOBS=${BENCH_JOBS:-$NCPU}
[ "$JOBS" -ge 2 ] || JOBS=2
TIME=/usr/bin/time
tmp=$(mktemp -d /tmp/idlelab-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ ! -x "$IDLELAB" ]; then
	echo "bench: $IDLELAB not found (run make first)" >&2
	exit 1
fi
if [ ! -x "$TIME" ]; then
	echo "bench: $TIME not found: peak RSS is not measured" >&2
	TIME=
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
	head -n1)
echo "machine: ${cpu:-unknown CPU}, $NCPU CPUs online, $(uname -sr)," \
     "$(awk '/^MemTotal/ { printf "%d MB", $2 / 1024 }' /proc/meminfo 2>/dev/null)"
if [ "${BENCH_IMPORT:-1}" != 0 ]; then
	echo
	IDLELAB=$IDLELAB sh "$(dirname "$0")/import.sh" || exit 1
	echo
fi
echo "idlelab replay benchmark: $NCPU CPUs online, load average" \
     "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
trace="$tmp/bench.idl"
"$IDLELAB" synth -o "$trace" --machine skx --cpus "$JOBS" \
	--duration "$SECS" --pattern 'poisson:20000+periodic' \
	>"$tmp/synth" 2>&1 || { cat "$tmp/synth"; exit 1; }
total=$(sed -n 's/.*: \([0-9]*\) idle periods.*/\1/p' "$tmp/synth")
echo "input: idlelab synth --machine skx --cpus $JOBS --duration $SECS" \
     "--pattern poisson:20000+periodic ($total periods," \
     "$(($(wc -c <"$trace") / 1048576)) MB)"

# The runs of a figure and of its reference alternate (reference, run,
# reference, run, ...), so that both see the same phases of a machine
# whose speed drifts; the fastest of each counts.

# stamp: the wall clock in seconds into $now, without starting a process
# where the shell can (bash's EPOCHREALTIME; LC_ALL=C keeps its point):
# starting one takes milliseconds on a VM, a tenth of some margins here
stamp() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		now=$EPOCHREALTIME
	else
		now=$(date +%s.%N)
	fi
}

# once NAME ARGS...: one `idlelab replay ARGS`, its CSV kept as NAME.csv,
# its wall time added to NAME.t
once() {
	name=$1
	shift
	stamp
	t0=$now
	"$IDLELAB" replay --format csv "$@" >"$tmp/$name.csv" 2>"$tmp/err" ||
		{ cat "$tmp/err"; return 1; }
	stamp
	awk -v a="$t0" -v b="$now" 'BEGIN { printf "%.6f\n", b - a }' \
		>>"$tmp/$name.t"
}

# bare NAME GOVS: one `replay --bare 1` of the comma-separated GOVS; the
# sum of their loops' seconds and of their selects added to NAME.t
bare() {
	"$IDLELAB" replay --bare 1 -g "$2" "$trace" >"$tmp/bare.out" ||
		return 1
	awk -v l="$2" '
	BEGIN { n = split(l, g, ","); for (i = 1; i <= n; i++) want[g[i]] = 1 }
	$1 in want { s += $4; sel += $3 }
	END { printf "%.6f %d\n", s, sel }' "$tmp/bare.out" >>"$tmp/$1.t"
}

# fastest NAME: the shortest time in NAME.t; bare_selects NAME: the
# selects of its first line
fastest() {
	sort -n "$tmp/$1.t" | awk 'NR == 1 { print $1 }'
}
bare_selects() {
	awk 'NR == 1 { print $2 }' "$tmp/$1.t"
}

# rss ARGS...: the peak RSS in kB of one more `idlelab replay ARGS` (a
# run of its own: /usr/bin/time is not in the timed ones)
rss() {
	if [ -z "$TIME" ] || ! "$TIME" -f '%M' -o "$tmp/rss" "$IDLELAB" \
	     replay --format csv "$@" >/dev/null 2>&1; then
		echo 0
		return
	fi
	cat "$tmp/rss"
}

# selects NAME GOV: the selects of GOV's column in NAME's CSV
selects() {
	awk -F, -v g="$2" '$2 == "all" && $3 == g && $4 == "selects" {
		print $6 }' "$tmp/$1.csv"
}

# line LABEL SECONDS PERIODS REF_SECONDS GOAL RSS: time, rate, the
# reference's rate, their ratio and its goal
line() {
	awk -v l="$1" -v t="$2" -v n="$3" -v r="$4" -v g="$5" -v kb="$6" '
	BEGIN {
		printf "  %-26s %7.3f s %7.2f M/s", l, t, n / t / 1e6
		if (r > 0)
			printf " %7.2f M/s %6.2f", n / r / 1e6, r / t
		else
			printf " %11s %6s", "", ""
		printf " %-9s %7d\n", g, kb / 1024
	}'
}

# alternate A B: RUNS times the commands A then B (shell words, eval'd)
alternate() {
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		eval "$1" || return 1
		eval "$2" || return 1
	done
}

printf '  %-26s %9s %11s %11s %6s %-9s %7s\n' "" "time" "replay" \
	"reference" "ratio" "goal" "RSS MB"
sum_bare=0
sum_replay=0
for g in $GOVS; do
	alternate 'bare "ref_$g" "$g"' \
		'once "one_$g" -g "$g" -j 1 "$trace"' || exit 1
	ref=$(fastest "ref_$g")
	t=$(fastest "one_$g")
	goal=
	case $g in menu|teo) goal='>= 0.8' ;; esac
	line "$g -j 1" "$t" "$total" "$ref" "$goal" \
		"$(rss -g "$g" -j 1 "$trace")"
	if [ "$(selects "one_$g" "$g")" != "$(bare_selects "ref_$g")" ]; then
		echo "    (selects: replay $(selects "one_$g" "$g"), bare loop" \
		     "$(bare_selects "ref_$g"): not the same calls)"
	fi
	sum_bare=$(awk -v a="$sum_bare" -v b="$ref" 'BEGIN { print a + b }')
	sum_replay=$(awk -v a="$sum_replay" -v b="$t" 'BEGIN { print a + b }')
done
ngov=$(echo $GOVS | wc -w)
all=$(echo $GOVS | tr ' ' ,)
alternate 'bare ref_all "$all"' 'once five -g "$all" -j 1 "$trace"' ||
	exit 1
five_s=$(fastest five)
five_kb=$(rss -g "$all" -j 1 "$trace")
line "$ngov in one pass -j 1" "$five_s" $((total * ngov)) \
	"$(fastest ref_all)" '>= 0.8' "$five_kb"
line "  vs their replays alone" "$five_s" $((total * ngov)) "$sum_replay" \
	'' "$five_kb"
alternate 'once j1 -g menu -j 1 "$trace"' \
	'once jn -g menu -j "$JOBS" "$trace"' || exit 1
line "menu -j $JOBS vs -j 1" "$(fastest jn)" "$total" "$(fastest j1)" \
	'>= 1.8' "$(rss -g menu -j "$JOBS" "$trace")"
alternate 'once five -g "$all" -j 1 "$trace"' \
	'once jn5 -g "$all" -j "$JOBS" "$trace"' || exit 1
line "$ngov in one pass -j $JOBS vs -j 1" "$(fastest jn5)" \
	$((total * ngov)) "$(fastest five)" '' \
	"$(rss -g "$all" -j "$JOBS" "$trace")"
echo "  (reference: idlelab replay --bare on the same trace, the governor's" \
     "select+reflect loop"
echo "   alone over periods decoded into memory; for $ngov in one pass," \
     "the sum of their"
echo "   bare loops' times; for -j, the same replay with -j 1; each run" \
     "alternates with"
echo "   one of its reference's, the fastest of $RUNS counts." \
     "ratio = reference time / time)"

# peak memory must not grow with the trace: the same replay on a tenth
"$IDLELAB" synth -o "$tmp/small.idl" --machine skx --cpus "$JOBS" \
	--duration "$(awk -v s="$SECS" 'BEGIN { print s / 10 }')" \
	--pattern 'poisson:20000+periodic' >/dev/null 2>&1 || exit 1
echo "  peak RSS, $ngov governors -j 1: $((five_kb / 1024)) MB on this" \
     "trace, $(($(rss -g "$all" -j 1 "$tmp/small.idl") / 1024)) MB on one" \
     "a tenth as long"
echo "  load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

n=${BENCH_SYNTHETIC:-5000000}
[ "$n" -gt 0 ] || exit 0
echo
echo "in-memory periods (replay --synthetic $n per CPU, no trace reader):"
for g in $GOVS; do
	once "mem_$g" -g "$g" -j 1 --synthetic "$n" || exit 1
	line "$g -j 1" "$(fastest "mem_$g")" "$n" 0 '' \
		"$(rss -g "$g" -j 1 --synthetic "$n")"
done
