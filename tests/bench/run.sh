#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: the machine, then import speed beside reference tools
# (tests/bench/import.sh; BENCH_IMPORT=0 leaves it out), then replay
# speed beside its reference: `idlelab replay --bare`, each governor's
# select+reflect loop alone over the same periods decoded into memory,
# in the same binary (doc/performance.md).  The replay input is a large synthetic trace made
# with `idlelab synth` at bench time.  Each timed command runs BENCH_RUNS
# times (default 5) and the fastest run counts.
#
# Environment: IDLELAB (default ./idlelab), BENCH_SECONDS (synth duration per CPU, default 150 s
# of a 20 kHz interrupt workload plus timers, about 2.6 M periods per
# CPU), BENCH_GOVERNORS (default menu teo ladder haltpoll oracle),
# BENCH_JOBS (default: the number of CPUs, at least 2), BENCH_RUNS,
# BENCH_SYNTHETIC (periods per CPU of the in-memory runs, 0: none).
set -u
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

# the reference: every governor's bare loop, fastest of RUNS
"$IDLELAB" replay --bare "$RUNS" -g "$(echo $GOVS | tr ' ' ,)" "$trace" \
	>"$tmp/bare" || exit 1

# timed NAME ARGS...: `idlelab replay ARGS` RUNS times, its CSV kept;
# NAME_s is the fastest wall time (ns clock), NAME_kb its peak RSS
timed() {
	name=$1
	shift
	b=
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		t0=$(date +%s%N)
		if [ -n "$TIME" ]; then
			"$TIME" -f '%M' -o "$tmp/rss" "$IDLELAB" replay \
				--format csv "$@" >"$tmp/$name.csv" 2>"$tmp/err"
		else
			"$IDLELAB" replay --format csv "$@" \
				>"$tmp/$name.csv" 2>"$tmp/err"
		fi || { cat "$tmp/err"; return 1; }
		t1=$(date +%s%N)
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
		if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN{exit !(a < b)}'
		then
			b=$w
			eval "${name}_kb=$(cat "$tmp/rss" 2>/dev/null || echo 0)"
		fi
	done
	eval "${name}_s=$b"
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

printf '  %-26s %9s %11s %11s %6s %-9s %7s\n' "" "time" "replay" \
	"reference" "ratio" "goal" "RSS MB"
sum_bare=0
sum_replay=0
for g in $GOVS; do
	timed one -g "$g" -j 1 "$trace" || exit 1
	set -- $(awk -v g="$g" '$1 == g { print $4, $3 }' "$tmp/bare")
	goal=
	case $g in menu|teo) goal='>= 0.8' ;; esac
	line "$g -j 1" "$one_s" "$total" "$1" "$goal" "$one_kb"
	if [ "$(selects one "$g")" != "$2" ]; then
		echo "    (selects: replay $(selects one "$g"), bare loop $2:" \
		     "not the same calls)"
	fi
	sum_bare=$(awk -v a="$sum_bare" -v b="$1" 'BEGIN { print a + b }')
	sum_replay=$(awk -v a="$sum_replay" -v b="$one_s" 'BEGIN { print a + b }')
done
ngov=$(echo $GOVS | wc -w)
all=$(echo $GOVS | tr ' ' ',')
timed five -g "$all" -j 1 "$trace" || exit 1
line "$ngov in one pass -j 1" "$five_s" $((total * ngov)) "$sum_bare" \
	'>= 0.8' "$five_kb"
line "  vs their replays alone" "$five_s" $((total * ngov)) "$sum_replay" \
	'' "$five_kb"
timed j1 -g menu -j 1 "$trace" || exit 1
timed jn -g menu -j "$JOBS" "$trace" || exit 1
line "menu -j $JOBS vs -j 1" "$jn_s" "$total" "$j1_s" '>= 1.8' "$jn_kb"
timed jn5 -g "$all" -j "$JOBS" "$trace" || exit 1
line "$ngov in one pass -j $JOBS vs -j 1" "$jn5_s" $((total * ngov)) \
	"$five_s" '' "$jn5_kb"
echo "  (reference: idlelab replay --bare on the same trace, the governor's" \
     "select+reflect loop"
echo "   alone over periods decoded into memory; for $ngov in one pass," \
     "the sum of their"
echo "   bare loops' times; for -j, the same replay with -j 1." \
     "ratio = reference time / time)"

# peak memory must not grow with the trace: the same replay on a tenth
"$IDLELAB" synth -o "$tmp/small.idl" --machine skx --cpus "$JOBS" \
	--duration "$(awk -v s="$SECS" 'BEGIN { print s / 10 }')" \
	--pattern 'poisson:20000+periodic' >/dev/null 2>&1 || exit 1
RUNS=1 timed small -g "$all" -j 1 "$tmp/small.idl" || exit 1
echo "  peak RSS, $ngov governors -j 1: $((five_kb / 1024)) MB on this" \
     "trace, $((small_kb / 1024)) MB on one a tenth as long"
echo "  load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

n=${BENCH_SYNTHETIC:-5000000}
[ "$n" -gt 0 ] || exit 0
echo
echo "in-memory periods (replay --synthetic $n per CPU, no trace reader):"
for g in $GOVS; do
	RUNS=1 timed mem -g "$g" -j 1 --synthetic "$n" || exit 1
	line "$g -j 1" "$mem_s" "$n" 0 '' "$mem_kb"
done
