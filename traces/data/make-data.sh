#!/bin/sh
# Re-create the bundled traces of traces/data (root; see README.md).
# Usage: make-data.sh [OUTDIR]   (IDLELAB=path/to/idlelab)
#
# Every trace is one "idlelab record" of a workload under one kernel
# governor.  The governor is switched through sysfs and ALWAYS restored
# to haltpoll, also on errors and signals.
set -eu
IDLELAB=${IDLELAB:-idlelab}
OUT=${1:-.}
G=/sys/devices/system/cpu/cpuidle/current_governor
MANIFEST=$OUT/manifest.txt

restore() { echo haltpoll > $G; }
trap restore EXIT
trap 'restore; exit 1' INT TERM HUP

# rec NAME GOVERNOR RECORD-ARGS...
rec() {
	name=$1 gov=$2
	shift 2
	echo "$gov" > $G
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	"$IDLELAB" record -o "$OUT/$name.idl" "$@" >/dev/null 2>"$OUT/.err" ||
		{ cat "$OUT/.err"; exit 1; }
	now=$(cat $G)
	restore
	[ "$now" = "$gov" ] || { echo "$name: governor changed to $now" >&2;
		exit 1; }
	printf '%s\t%s\tload %s\t%s\n' "$name" "$gov" "$load" \
		"$(tail -1 "$OUT/.err")" >> "$MANIFEST"
	rm -f "$OUT/.err"
}

# Workloads (never let a benchmark set /dev/cpu_dma_latency: cyclictest
# runs with --laptop).
IDLE="--duration 5"
TIMER="-- cyclictest --laptop -q -t 1 -i 4000 -D 5"
PIPE="-- perf bench sched pipe -l 4000"
HACK="-- hackbench -g 1 -f 5 -l 40"

: > "$MANIFEST"
for gov in haltpoll menu ladder; do
	rec "idle-$gov" $gov $IDLE
	rec "timer-$gov" $gov $TIMER
	rec "pipe-$gov" $gov $PIPE
	rec "hackbench-$gov" $gov $HACK
done
# default.idl: the three kinds of load in one run, under haltpoll
rec default haltpoll -- sh -c 'cyclictest --laptop -q -t 1 -i 4000 -D 6 &
	sleep 1; perf bench sched pipe -l 3000 >/dev/null; sleep 1;
	hackbench -g 1 -f 5 -l 40 >/dev/null; wait'
