#!/bin/sh
# idlelab on the lab's multi-state machine (doc/lab.md, "idlelab in the
# guest"): runs inside the guest, as root, by `lab/lab.sh run -x`.  What
# it leaves in $OUT goes back to the host:
#   states.check  `idlelab states` against sysfs, every CPU and state
#   rec-GOV.idl   `idlelab record` of a workload under each governor the
#                 kernel offers (lab.sh replay scores them)
#   rec-GOV-probed.idl  the same with --probe-inputs, under menu (or the
#                 first governor; PROBED: 1, 0 leaves it out), and a probed
#                 recorder killed: the next record removes its probes
#   live-probed/  `idlelab live --record --probe-inputs`, one short run
#   live/         `idlelab live` over those governors (compare, report)
#   soak.log      tests/live-soak.sh: SIGKILLs of live and record
#   summary       one line per part; FAIL lines for what went wrong
# Settings (lab.sh run -E NAME=VALUE): RECORD_WORK ("spread 1500"),
# RECORD_SECS (6), BENCH, RUNS (3), WARMUP (1), DURATION (2), KILLS (20),
# RECORD_KILLS (5), PROBED (1), SOAK (/lab/tests/live-soak.sh: where
# lab.sh run puts the tree's tests); a part is left out when its count
# is 0.
set -u
SYS=/sys/devices/system/cpu
cd "$OUT" || exit 1
: "${RECORD_WORK:=spread 1500}" "${RECORD_SECS:=6}" "${RUNS:=3}"
: "${WARMUP:=1}" "${DURATION:=2}" "${KILLS:=20}" "${RECORD_KILLS:=5}"
: "${PROBED:=1}"
: "${BENCH:=pingpong,timer,wakeup,hackbench,cyclictest}"
RECORD_WORK=$(echo "$RECORD_WORK" | tr _ ' ')
fail=0

say() {
	echo "$*" >> summary
	echo "lab: [$(cut -d' ' -f1 /proc/uptime)] $*" > /dev/console
}
bad() { say "FAIL: $*"; fail=1; }
disables() { cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n'; }

G0=$(cat $SYS/cpuidle/current_governor)
D0=$(disables)
GOVS=$(echo $(cat $SYS/cpuidle/available_governors))
say "kernel $(uname -r), $(cat $SYS/cpuidle/current_driver), governors" \
    "$GOVS (current $G0), idlelab: $(idlelab --version)"

# as the host was found: governor and disabled states
as_found() {
	[ "$(cat $SYS/cpuidle/current_governor)" = "$G0" ] ||
		bad "$1: governor $(cat $SYS/cpuidle/current_governor), was $G0"
	[ "$(disables)" = "$D0" ] || bad "$1: disable $(disables), was $D0"
}

# 1. the table idlelab reads, against sysfs
n=0
for c in $SYS/cpu[0-9]*; do
	[ -d "$c/cpuidle" ] || continue
	cpu=${c##*/cpu}
	idlelab states --cpu "$cpu" --format csv > "states-cpu$cpu.csv" ||
		bad "states --cpu $cpu: exit $?"
	for s in "$c"/cpuidle/state*; do
		i=${s##*/state}
		want="$i,$(cat "$s/name"),$(cat "$s/latency"),$(cat "$s/residency"),$(cat "$s/disable")"
		got=$(awk -F, -v i="$i" 'NR > 1 && $1 == i {
			print $1 "," $2 "," $4 "," $5 "," $7 }' "states-cpu$cpu.csv")
		echo "cpu$cpu $want | $got" >> states.check
		[ "$got" = "$want" ] ||
			bad "states cpu$cpu state$i: idlelab '$got', sysfs '$want'"
		n=$((n + 1))
	done
done
say "states: $n CPU states compared with sysfs"
idlelab states > states.txt 2>&1

# 2. a recording under each governor
if [ "$RECORD_SECS" != 0 ]; then
	for g in $GOVS; do
		echo "$g" > $SYS/cpuidle/current_governor
		# shellcheck disable=SC2086
		if idlelab record -o "rec-$g.idl" --raw "rec-$g.txt" -- \
			idle-workload $RECORD_WORK "$RECORD_SECS" \
			> "rec-$g.log" 2>&1; then
			say "record under $g: $(tail -1 "rec-$g.log")"
		else
			bad "record under $g: $(tail -1 "rec-$g.log")"
		fi
	done
	echo "$G0" > $SYS/cpuidle/current_governor
fi

# the same with the kernel's own inputs, probed; the probes' definitions
# go with the recorder, and a killed recorder's with the next one
probes() {
	grep -c '^[pr][0-9]*:idlelab_record/' /sys/kernel/tracing/kprobe_events
}
if [ "$RECORD_SECS" != 0 ] && [ "$PROBED" != 0 ]; then
	# menu reads all three inputs, ladder none
	case " $GOVS " in
	*" menu "*) g=menu ;;
	*) g=${GOVS%% *} ;;
	esac
	echo "$g" > $SYS/cpuidle/current_governor
	# shellcheck disable=SC2086
	if idlelab record --probe-inputs -o "rec-$g-probed.idl" -- \
		idle-workload $RECORD_WORK "$RECORD_SECS" \
		> "rec-$g-probed.log" 2>&1; then
		say "record --probe-inputs under $g:" \
		    "$(grep 'probe events' "rec-$g-probed.log")"
	else
		bad "record --probe-inputs under $g: $(tail -1 "rec-$g-probed.log")"
	fi
	[ "$(probes)" = 0 ] ||
		bad "record --probe-inputs left $(probes) kprobe definitions"
	idlelab record --probe-inputs -q -o rec-killed.idl -d 60 &
	sleep 3
	n=$(probes)
	kill -9 $!
	wait $! 2>/dev/null
	idlelab record -q -o rec-after.idl -d 1 > rec-after.log 2>&1
	if [ "$n" -ge 2 ] && [ "$(probes)" = 0 ]; then
		say "a killed probed recorder's $n probes: removed by the next record"
	else
		bad "killed probed recorder: $n probes while it ran," \
		    "$(probes) after the next record"
	fi
	# live's recordings with the probes: the kernel's own inputs in
	# the run's trace, and no definitions left after it
	if idlelab live -g "$g" -b timer -n 1 -w 0 -d 2 --record \
		--probe-inputs -o live-probed > live-probed.log 2>&1 &&
	   idlelab info live-probed/runs/*.trace 2>&1 |
		grep -q "kernel's own (its residency probes)" &&
	   [ "$(probes)" = 0 ]; then
		say "live --record --probe-inputs: the run's trace probed," \
		    "no probes left"
	else
		bad "live --record --probe-inputs: $(tail -1 live-probed.log)," \
		    "$(probes) probes left"
	fi
	echo "$G0" > $SYS/cpuidle/current_governor
	rm -f rec-killed.idl rec-after.idl
fi

# a command that cannot run: exit 2, nothing written
idlelab record -o rec-none.idl -- /nonexistent > rec-none.log 2>&1
rc=$?
if [ "$rc" = 2 ] && [ ! -e rec-none.idl ] && grep -q 'cannot run it' rec-none.log; then
	say "record of a command that cannot run: exit 2, no output"
else
	bad "record -- /nonexistent: exit $rc ($(tail -1 rec-none.log))"
fi
as_found "after record"

# 3. live: every governor, the benchmarks, repetitions
if [ "$RUNS" != 0 ]; then
	idlelab live -g "$(echo $GOVS | tr ' ' ,)" -b "$BENCH" -n "$RUNS" \
		-w "$WARMUP" -d "$DURATION" -o live > live.log 2>&1 ||
		bad "live: exit $? ($(tail -1 live.log))"
	as_found "after live"
	say "live: $(ls live/runs/*.json 2>/dev/null | wc -l) runs"
fi

# 4. SIGKILLs of live and record at random moments
if [ "$KILLS" != 0 ]; then
	# under emulation, with hackbench on both vCPUs, a killed
	# session's recorder took more than 10 s to remove its instance
	IDLELAB=$(command -v idlelab) IDLELAB_SOAK_KILLS=$KILLS \
		IDLELAB_SOAK_RECORD_KILLS=$RECORD_KILLS \
		IDLELAB_SOAK_WIND_DOWN=60 \
		bash "${SOAK:-/lab/tests/live-soak.sh}" > soak.log 2>&1
	rc=$?
	[ $rc = 0 ] || bad "live-soak: exit $rc ($(tail -1 soak.log))"
	say "soak: $(grep -i 'kills' soak.log | tail -2 | tr '\n' ' ')"
	as_found "after the soak"
fi
as_found "at the end"
exit $fail
