#!/bin/sh
# Re-create the bundled traces of traces/data (root; see README.md).
# Usage: make-data.sh [OUTDIR]   (IDLELAB=path/to/idlelab)
#
# Every trace is one "idlelab record" of a workload under one kernel
# governor.  The governor is switched through sysfs and restored to
# haltpoll after each recording, on errors and on signals.
set -eu
IDLELAB=${IDLELAB:-idlelab}
OUT=${1:-.}
G=/sys/devices/system/cpu/cpuidle/current_governor
MANIFEST=$OUT/manifest.txt

# Restore haltpoll on every exit, unless another job has switched the
# governor since (it is then testing and restores it itself).
MINE=
restore() {
	[ -n "$MINE" ] && [ "$(cat $G)" = "$MINE" ] && echo haltpoll > $G
	MINE=
	return 0
}
trap restore EXIT
trap 'restore; exit 1' INT TERM HUP

# The VM is shared with other jobs: start each recording in a quiet
# moment, when CPU 0 enters idle states more than 300 times a second
# (over 2 s), waiting at most QUIET_WAIT seconds.
QUIET_WAIT=${QUIET_WAIT:-600}
usage() { cat /sys/devices/system/cpu/cpu0/cpuidle/state*/usage |
	awk '{ s += $1 } END { print s }'; }
quiet() {
	end=$(( $(date +%s) + QUIET_WAIT ))
	while [ "$(date +%s)" -lt $end ]; do
		a=$(usage); sleep 2; b=$(usage)
		[ $(( (b - a) / 2 )) -gt 300 ] && return 0
	done
	echo "no quiet moment in $QUIET_WAIT s; recording anyway" >&2
}

# rec NAME GOVERNOR RECORD-ARGS...: a recording is kept only if the
# governor stayed as set for all of it; else it is retried.
rec() {
	name=$1 gov=$2 tries=0
	shift 2
	while :; do
		quiet
		# another job is switching governors: wait for it
		[ "$(cat $G)" = haltpoll ] || { sleep 10; continue; }
		load=$(cut -d' ' -f1-3 /proc/loadavg)
		MINE=$gov
		echo "$gov" > $G
		"$IDLELAB" record -o "$OUT/$name.idl" "$@" >/dev/null \
			2>"$OUT/.err" || { cat "$OUT/.err"; exit 1; }
		now=$(cat $G)
		restore
		[ "$now" = "$gov" ] && break
		tries=$((tries + 1))
		echo "$name: governor became $now meanwhile; retrying" >&2
		[ $tries -lt 5 ] || exit 1
	done
	printf '%s\t%s\tload %s\t%s\n' "$name" "$gov" "$load" \
		"$(tail -1 "$OUT/.err")" >> "$MANIFEST"
	rm -f "$OUT/.err"
}

# Workloads (never let a benchmark set /dev/cpu_dma_latency: cyclictest
# runs with --laptop).
IDLE="--duration 5"
TIMER="-- cyclictest --laptop -q -t 1 -i 4000 -D 5"
# pipe ping-pong pinned to CPU 0 and CPU 1, so that every round trip
# can idle both CPUs (perf bench sched pipe -l 8000 gave only 81-170
# idle periods here)
PINGPONG='import os, sys
n = int(sys.argv[1])
r1, w1 = os.pipe()
r2, w2 = os.pipe()
if os.fork() == 0:
    os.sched_setaffinity(0, {1})
    for _ in range(n):
        os.read(r1, 1)
        os.write(w2, b"x")
    os._exit(0)
os.sched_setaffinity(0, {0})
for _ in range(n):
    os.write(w1, b"x")
    os.read(r2, 1)
os.wait()'
export PINGPONG
HACK="-- hackbench -g 1 -f 2 -l 4000"

: > "$MANIFEST"
for gov in haltpoll menu ladder; do
	rec "idle-$gov" $gov $IDLE
	rec "timer-$gov" $gov $TIMER
	rec "pipe-$gov" $gov -- python3 -c "$PINGPONG" 3000
	rec "hackbench-$gov" $gov $HACK
done
# default.idl: the three kinds of load in one run, under haltpoll
rec default haltpoll -- sh -c 'cyclictest --laptop -q -t 1 -i 4000 -D 6 &
	sleep 1; python3 -c "$PINGPONG" 3000; sleep 1;
	hackbench -g 1 -f 2 -l 4000 >/dev/null; wait'
