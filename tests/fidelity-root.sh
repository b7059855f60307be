#!/bin/sh
# Replay fidelity on fresh captures of this host (root, tracefs and a
# cpuidle driver, else SKIP): under each governor the host offers and
# idlelab has, five workloads (idle, a 999 us periodic timer, random sleeps
# of about 500 us, a pipe ping-pong every 200 us, random sleeps with the
# CPU latency QoS held at 0 for a third of the time and CPU 0's resume
# latency for another), and under haltpoll polling (guest_halt_poll_ns
# 200000: random sleeps of about 300 us, a ping-pong every 50 us) are
# captured:
# by idlelab record, as plain tracefs text with a reduced event set (no
# sched_switch) and, when perf works, as perf script text of the same
# events, both imported with --governor.  Replaying each capture
# with the governor that was live must choose the recorded state for at
# least 99.5% of the entries of every capture, and all but at most one
# of a capture of fewer than 400 (doc/scoring.md); a failure prints the
# first disagreements with their inputs.  The governor is restored on
# every exit, and so are CPU 0's resume latency and guest_halt_poll_ns.
# FIDELITY_SECONDS sets the length of each capture
# (default 4).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
: "${top_builddir:=.}"
WORKLOAD=$top_builddir/tests/idle-workload
SYS=/sys/devices/system/cpu
TR=/sys/kernel/tracing
D=${FIDELITY_SECONDS:-4}

[ "$(id -u)" = 0 ] || skip "not root"
[ -d $SYS/cpu0/cpuidle ] ||
	skip "no cpuidle driver ($(cat $SYS/cpuidle/current_driver 2>/dev/null))"
if [ ! -d $TR/instances ]; then
	mount -t tracefs nodev $TR 2>/dev/null || skip "no tracefs"
fi
[ -w $SYS/cpuidle/current_governor ] ||
	skip "the governor cannot be switched"
command -v python3 >/dev/null || skip "no python3"

live_lock
tmpdir
G0=$(cat $SYS/cpuidle/current_governor)
# the qos workload sets CPU 0's resume latency for a while
Q=$SYS/cpu0/power/pm_qos_resume_latency_us
Q0=$(cat $Q 2>/dev/null)
# and haltpoll's polling window
HP=/sys/module/haltpoll/parameters/guest_halt_poll_ns
HP0=$(cat "$HP" 2>/dev/null)
INST=
# Never leave the host changed: the governor and CPU 0's resume latency
# back, our instance gone.
cleanup() {
	[ -n "$INST" ] && [ -d "$INST" ] && rmdir "$INST" 2>/dev/null
	[ "$(cat $SYS/cpuidle/current_governor)" = "$G0" ] ||
		echo "$G0" > $SYS/cpuidle/current_governor
	[ -z "$Q0" ] || [ "$(cat $Q)" = "$Q0" ] || echo "$Q0" > $Q
	[ -z "$HP0" ] || [ "$(cat "$HP")" = "$HP0" ] || echo "$HP0" > "$HP"
}

# The reduced event set of a user's plain capture: no sched_switch.
EVENTS="power/cpu_idle power/cpu_idle_miss power/pm_qos_update_target
	power/pm_qos_add_request power/pm_qos_update_request
	power/pm_qos_remove_request power/dev_pm_qos_add_request
	power/dev_pm_qos_update_request power/dev_pm_qos_remove_request
	timer/hrtimer_start
	timer/hrtimer_cancel timer/hrtimer_expire_entry timer/tick_stop
	timer/timer_start timer/timer_cancel timer/timer_expire_entry
	irq/irq_handler_entry irq/softirq_entry ipi/ipi_send_cpu
	ipi/ipi_send_cpumask sched/sched_wakeup"

# text_capture OUT WORKLOAD...: a private instance, tracefs text.
text_capture() {
	out=$1
	shift
	INST=$TR/instances/idlelab-fidelity-$$
	mkdir "$INST" || return 1
	echo 0 > "$INST/tracing_on"
	for e in $EVENTS; do
		[ -e "$INST/events/$e/enable" ] && echo 1 > "$INST/events/$e/enable"
	done
	echo 16384 > "$INST/buffer_size_kb"
	echo 1 > "$INST/tracing_on"
	"$@"
	echo 0 > "$INST/tracing_on"
	cat "$INST/trace" > "$out"
	rmdir "$INST"
	INST=
}

# perf_capture OUT WORKLOAD...: the same events by perf record, as
# perf script text (perf keeps its own buffers: no tracefs instance).
PERF_EVENTS=$(for e in $EVENTS; do
	[ -d "$TR/events/$e" ] && echo "$e" | sed 's|/|:|'
done | paste -sd, -)
perf_capture() {
	out=$1
	shift
	perf record -q -a -o "$T/perf.data" -e "$PERF_EVENTS" -- "$@" \
		>/dev/null 2>"$T/perf.err" &&
		perf script -i "$T/perf.data" > "$out" 2>>"$T/perf.err"
}
PERF=
command -v perf >/dev/null && perf_capture "$T/probe.txt" true && PERF=1
[ -n "$PERF" ] || echo "  (no usable perf: perf script captures left out)"

# The live tunables, as a user reads them from /sys/module.
spec_of() {
	s=$1 sep=:
	for p in /sys/module/$1/parameters/*; do
		[ -r "$p" ] || continue
		v=$(cat "$p")
		case $v in Y) v=1 ;; N) v=0 ;; esac
		s="$s$sep${p##*/}=$v"
		sep=,
	done
	echo "$s"
}

# qos_seen NAME TRACE: the qos workload's 0 us constraint is in the trace
qos_seen() {
	case $1 in qos-*) ;; *) return ;; esac
	"$IDLELAB" info --format json "$2" 2>/dev/null | python3 -c '
import json, sys
q = json.load(sys.stdin)["stats"]["latency_req_recorded"]
sys.exit(0 if q and q["periods"] > 0 and q["min_ns"] == 0 else 1)' ||
		bad "$1: the 0 us PM QoS constraint is not in the trace"
}

# check NAME TRACE GOVERNOR: replay, read the agreement, assert.
check() {
	qos_seen "$1" "$2"
	c_trace=$2 c_gov=$3
	"$IDLELAB" replay -g "$3" --format json -o "$T/r.json" "$2" \
		2>"$T/err" || { bad "$1: replay: $(cat "$T/err")"; return; }
	set -- "$1" $(python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]
g = t["governors"][sys.argv[2]]
print(g["agreement_entries"], g["agreement_same"])' "$T/r.json" "$3")
	n=$2 same=$3
	[ "$n" -gt 0 ] || { bad "$1: no agreement measured"; return; }
	pct=$(python3 -c "print('%.2f' % (100.0 * $same / $n if $n else 0))")
	printf '  %-32s %7d entries %7s%% same\n' "$1" "$n" "$pct"
	# at least 99.5%, and at most one disagreement on a short capture
	allowed=$((n / 200))
	[ $allowed -ge 1 ] || allowed=1
	[ $((n - same)) -le $allowed ] && return
	bad "$1: $((n - same)) disagreements in $n entries ($pct% same; $allowed allowed)"
	# what the CI log needs to tell a model error from a kernel surprise
	"$IDLELAB" replay -g "$c_gov" --disagreements 3 "$c_trace" 2>/dev/null |
		sed -n '/^disagreement/,/^replay of/p' | grep -v '^replay of' |
		grep -v '| .*typical:' | sed 's/^/    /'
}

# entries TRACE GOVERNOR: the recorded entries the agreement counts
entries() {
	"$IDLELAB" replay -g "$2" --format json -o "$T/e.json" "$1" \
		2>/dev/null || { echo 0; return; }
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]
print(t["governors"][sys.argv[2]]["agreement_entries"] or 0)' "$T/e.json" "$2"
}

# capture NAME GOV WORKLOAD...: the record and the text capture of one
# workload; 1 when either holds no idle entry
capture() {
	name=$1 gov=$2
	shift 2
	echo "$gov" > $SYS/cpuidle/current_governor
	"$IDLELAB" record -q -o "$T/$name.rec.idl" -- $WORKLOAD "$@" \
		2>"$T/err" || { bad "$name: record: $(cat "$T/err")"; return 2; }
	text_capture "$T/$name.txt" $WORKLOAD "$@" ||
		{ bad "$name: text capture"; return 2; }
	[ -z "$PERF" ] || perf_capture "$T/$name.perf.txt" $WORKLOAD "$@" ||
		{ bad "$name: perf capture: $(cat "$T/perf.err")"; return 2; }
	[ "$(cat $SYS/cpuidle/current_governor)" = "$gov" ] ||
		{ bad "$name: the governor changed during the capture"; return 2; }
	grep -q 'cpu_idle: state=' "$T/$name.txt" &&
		{ [ -z "$PERF" ] ||
		  grep -q 'cpu_idle: state=' "$T/$name.perf.txt"; } &&
		[ "$(entries "$T/$name.rec.idl" "$gov")" != 0 ]
}

# run_workloads GOV [TAG WORKLOAD...]: the default five, or these (their
# names with -TAG)
run_workloads() {
	gov=$1 tag=
	shift
	[ $# -gt 0 ] && { tag=-$1; shift; }
	# the periodic timer walks 1 us a period against the tick grid:
	# each capture holds entries at every distance before the tick
	# (where the clock offset's accuracy decides menu's walk back)
	[ $# -gt 0 ] || set -- "idle $D" "periodic 999 $D" "random 500 $D" \
		"pingpong 200 $D" "qos 500 $D"
	ok=0
	for w in "$@"; do
		name=${w%% *}-$gov$tag
		# on a machine busy with other work a CPU may never go idle in
		# a short capture: up to 3 attempts, then the workload is
		# skipped (said); a governor with every workload skipped fails
		for a in 1 2 3; do
			capture "$name" "$gov" $w
			rc=$?
			[ $rc = 1 ] || break
			echo "  ($name: no idle entry in capture $a: the machine is busy)"
		done
		[ $rc = 2 ] && continue
		[ $rc = 1 ] && { echo "  $name: skipped"; continue; }
		"$IDLELAB" import -q "$T/$name.txt" -o "$T/$name.idl" \
			--states "$T/host.tbl" --governor "$(spec_of $gov)" \
			2>"$T/err" || { bad "$name: import: $(cat "$T/err")"; continue; }
		check "$name (record)" "$T/$name.rec.idl" "$gov"
		check "$name (text)" "$T/$name.idl" "$gov"
		if [ -z "$PERF" ]; then
			:
		elif "$IDLELAB" import -q "$T/$name.perf.txt" \
			-o "$T/$name.perf.idl" --states "$T/host.tbl" \
			--governor "$(spec_of $gov)" 2>"$T/err"; then
			check "$name (perf)" "$T/$name.perf.idl" "$gov"
		else
			bad "$name: perf import: $(cat "$T/err")"
		fi
		ok=$((ok + 1))
	done
	[ $ok -gt 0 ] || bad "$gov: no workload could be captured with idle entries"
}

"$IDLELAB" states --save "$T/host.tbl" >/dev/null 2>&1 ||
	skip "cannot read this machine's C-state table"
ran=0
for gov in $(cat $SYS/cpuidle/available_governors); do
	"$IDLELAB" decide --help | grep -q "^  $gov (" || continue
	echo "$gov:"
	run_workloads "$gov"
	ran=1
done
[ $ran = 1 ] || skip "no governor idlelab has"
# haltpoll polling: its window adapts to the halts it sees, and a poll
# that ran out is told apart from one a wakeup ended only by the capture
# (doc/importing.md)
if grep -qw haltpoll $SYS/cpuidle/available_governors && [ -w "$HP" ]; then
	echo "haltpoll, guest_halt_poll_ns=200000:"
	echo 200000 > "$HP"
	run_workloads haltpoll poll "random 300 $D" "pingpong 50 $D"
fi
# each failure at once, and all of them again at the end: a log cut to
# its tail (CI's) still names the captures that failed
[ "$fails" = 0 ] || printf 'failed:%s\n' "$failures"
finish
