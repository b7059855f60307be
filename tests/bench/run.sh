#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`: the machine, then import speed beside reference tools
# (tests/bench/import.sh; BENCH_IMPORT=0 leaves it out), then replay
# throughput, idle periods per second per governor, single-threaded and
# with -j, and peak RSS.  The replay input is a large synthetic trace
# made with `idlelab synth` at bench time (or, without synth, periods
# generated in memory by `replay --synthetic`).
#
# Environment: IDLELAB (default ./idlelab), BENCH_SECONDS (synth duration
# per CPU, default 150 s of a 20 kHz interrupt workload plus timers,
# about 2.6 M periods per CPU), BENCH_GOVERNORS (default menu,teo,ladder,
# haltpoll,oracle), BENCH_JOBS (default: the number of CPUs).
set -u
IDLELAB=${IDLELAB:-./idlelab}
SECS=${BENCH_SECONDS:-150}
GOVS=${BENCH_GOVERNORS:-menu teo ladder haltpoll oracle}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JOBS=${BENCH_JOBS:-$NCPU}
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

# run LABEL PERIODS ARGS...: one replay; prints wall/user seconds, rates, RSS
run() {
	label=$1; periods=$2; shift 2
	if [ -n "$TIME" ]; then
		"$TIME" -f '%e %U %S %M' -o "$tmp/t" "$IDLELAB" replay "$@" \
			>/dev/null 2>"$tmp/err" || { cat "$tmp/err"; return 1; }
		read -r wall user sys rss <"$tmp/t"
		user=$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')
	else
		s=$(date +%s.%N)
		"$IDLELAB" replay "$@" >/dev/null 2>"$tmp/err" ||
			{ cat "$tmp/err"; return 1; }
		wall=$(echo "$(date +%s.%N) - $s" | bc); user=$wall; rss=0
	fi
	awk -v l="$label" -v n="$periods" -v w="$wall" -v u="$user" -v r="$rss" \
	'BEGIN { printf "%-34s %10d %8.2f %8.2f %10.2f %10.2f %8d\n", l, n, w, u,
		 (w > 0 ? n / w / 1e6 : 0), (u > 0 ? n / u / 1e6 : 0), r }'
}

header() {
	printf '%-34s %10s %8s %8s %10s %10s %8s\n' "run" "periods" "wall s" \
		"cpu s" "M/s wall" "M/s cpu" "RSS KB"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
	head -n1)
echo "machine: ${cpu:-unknown CPU}, $NCPU CPUs online, $(uname -sr)," \
     "$(awk '/^MemTotal/ { printf "%d MB", $2 / 1024 }' /proc/meminfo 2>/dev/null)"
if [ "${BENCH_IMPORT:-1}" != 0 ]; then
	echo
	IDLELAB=$IDLELAB sh "$(dirname "$0")/import.sh" || exit 1
	echo
fi
echo "idlelab replay benchmark: $NCPU CPUs online, -j $JOBS"
echo "(M/s = million recorded idle periods per second per governor;"
echo " 'cpu' divides by user+system CPU time, so it reads per core under -j;"
echo " on a loaded machine wall time is longer than CPU time)"
if "$IDLELAB" synth --help >/dev/null 2>&1; then
	trace="$tmp/bench.idl"
	"$IDLELAB" synth -o "$trace" --machine skx --cpus "$JOBS" \
		--duration "$SECS" --pattern 'poisson:20000+periodic' \
		>"$tmp/synth" 2>&1 || { cat "$tmp/synth"; exit 1; }
	total=$(sed -n 's/.*: \([0-9]*\) idle periods.*/\1/p' "$tmp/synth")
	percpu=$((total / JOBS))
	echo "input: idlelab synth --machine skx --cpus $JOBS --duration $SECS" \
	     "--pattern poisson:20000+periodic ($total periods," \
	     "$(($(wc -c <"$trace") / 1048576)) MB)"
	header
	for g in $GOVS; do
		run "$g -j1" "$total" -g "$g" -j 1 "$trace" || exit 1
		run "$g -j$JOBS" "$total" -g "$g" -j "$JOBS" "$trace" || exit 1
	done
	all=$(echo $GOVS | tr ' ' ',')
	ngov=$(echo $GOVS | wc -w)
	run "all $ngov governors -j$JOBS (x$ngov)" $((total * ngov)) \
		-g "$all" -j "$JOBS" "$trace" || exit 1
else
	echo "input: idlelab synth not available; replay --synthetic (in memory)"
fi

n=${BENCH_SYNTHETIC:-5000000}
echo
echo "in-memory periods (replay --synthetic $n per CPU, no trace reader):"
header
for g in $GOVS; do
	run "$g -j1" "$n" -g "$g" -j 1 --synthetic "$n" || exit 1
done
run "menu -j$JOBS ($JOBS CPUs)" $((n * JOBS)) -g menu -j "$JOBS" \
	--synthetic "$n:$JOBS" || exit 1
echo
echo "goal: 25 M periods/s per core per governor for menu and teo (scoring on)"
