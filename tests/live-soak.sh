#!/bin/bash
# SIGKILL soak (root and a real cpuidle only, else SKIP).  idlelab live is
# started $IDLELAB_SOAK_KILLS times (default 100) with varied options
# (--record, --latency-limit, --disable-state, a benchmark that runs an
# external tool with children of its own) and killed with SIGKILL: half
# of the kills after a random delay, a quarter as soon as the governor
# is switched, a quarter as soon as results are written, so that they
# land in every phase: before the journal, between the journal and the
# switch, during a benchmark, while results are written.  After each kill the host is put back by
# `live --restore` (odd kills) or by the next session's start (even
# kills, a short session that then runs to its end); every tenth journal
# is also torn first (cut after its first disable line); every time the
# test checks, reading sysfs and tracefs itself: the governor, every
# state's disable value, the PM QoS latency request, no tracefs instance
# of a dead recorder, no benchmark process left.  Then the same for
# `record`: $IDLELAB_SOAK_RECORD_KILLS (default 30) SIGKILLs, each
# followed by a start that must remove the instance the killed recorder
# left, with a message.  Prints how many kills hit each phase.
# IDLELAB_SOAK_WIND_DOWN: seconds a killed session's children may take
# to wind down (default 10).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
SYS=/sys/devices/system/cpu
TR=/sys/kernel/tracing
KILLS=${IDLELAB_SOAK_KILLS:-100}
RKILLS=${IDLELAB_SOAK_RECORD_KILLS:-30}
# how long a killed session's children may take to wind down (s): an
# emulated machine busy with the benchmark needs more (lab/guest)
WIND=${IDLELAB_SOAK_WIND_DOWN:-10}

[ "$(id -u)" = 0 ] || skip "not root"
[ -w $SYS/cpuidle/current_governor ] || skip "no cpuidle"
[ -d $SYS/cpu0/cpuidle ] ||
	skip "no cpuidle driver ($(cat $SYS/cpuidle/current_driver))"
[ -d $TR/instances ] || mount -t tracefs nodev $TR 2>/dev/null ||
	skip "no tracefs"
command -v flock >/dev/null || skip "no flock(1)"
unset IDLELAB_SYSFS_ROOT

# no other test switches governors meanwhile (live-root.sh does the same)
live_lock

tmpdir
export IDLELAB_RUN_DIR=$T/run
G0=$(cat $SYS/cpuidle/current_governor)
D0=$(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')
qos() { [ -r /dev/cpu_dma_latency ] && od -An -td4 /dev/cpu_dma_latency | tr -d ' '; }
Q0=$(qos)
other=$(tr ' ' '\n' <$SYS/cpuidle/available_governors | grep -v "^$G0\$" |
	grep . | head -1)
[ -n "$other" ] || skip "only one governor"
nstates=$(ls -d $SYS/cpu0/cpuidle/state* | wc -l)
BG=

cleanup() {
	[ -n "$BG" ] && kill -9 "$BG" 2>/dev/null
	echo "$G0" >$SYS/cpuidle/current_governor
	i=0
	for f in $SYS/cpu*/cpuidle/state*/disable; do
		echo "${D0:$i:1}" >"$f"
		i=$((i + 1))
	done
}

# instances whose recorder is gone
dead_instances() {
	local i pid
	for i in $(ls $TR/instances | grep '^idlelab-record-'); do
		pid=$(echo "$i" | cut -d- -f3)
		kill -0 "$pid" 2>/dev/null || echo "$i"
	done
}

# The processes whose command line holds $2 (-f) or whose name is $2
# (-x), found in /proc with builtins only: the lab guest's busybox has no
# pgrep (an empty answer there passed every check), and no process of
# this scan carries the pattern in its own command line.  Zombies have
# an empty command line and are left out.
procs() {
	local how=$1 pat=$2 d name args
	for d in /proc/[0-9]*; do
		case ${d#/proc/} in "$$"|"$BASHPID") continue ;; esac
		mapfile -d '' args 2>/dev/null <"$d/cmdline" || continue
		[ ${#args[@]} -gt 0 ] || continue
		case $how in
		-f) [[ "${args[*]}" == *"$pat"* ]] && echo "${d#/proc/}" ;;
		-x) read -r name 2>/dev/null <"$d/comm" &&
			[ "$name" = "$pat" ] && echo "${d#/proc/}" ;;
		esac
	done
	return 0
}

# The host as found: governor, disable values, latency request, no
# instance of a dead recorder (its SIGTERM may take a moment), no
# benchmark left.
as_found() {
	local what=$1 i=0 left
	# a killed session's recorder winds down on its SIGTERM (it drains
	# and writes its trace, then removes its instance): $WIND s at most
	# (a sanitizer build spends about 3 s in libtracefs's start-up,
	# which a SIGTERM does not interrupt)
	# (every recorder instance counts: one whose recorder is still
	# winding down becomes a dead one's if the recorder dies first)
	while { [ -n "$(ls $TR/instances | grep '^idlelab-record-')" ] ||
		[ -n "$(procs -f "-o $T/o")" ]; } && [ $i -lt $((WIND * 20)) ]; do
		sleep 0.05; i=$((i + 1))
	done
	((i * 50 > wind_down)) && wind_down=$((i * 50))
	[ "$(cat $SYS/cpuidle/current_governor)" = "$G0" ] ||
		bad "$what: governor $(cat $SYS/cpuidle/current_governor)"
	[ "$(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')" = "$D0" ] ||
		bad "$what: disable $(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')"
	[ "$(qos)" = "$Q0" ] || bad "$what: latency request $(qos), was $Q0"
	left=$(ls $TR/instances | grep '^idlelab-record-')
	[ -z "$left" ] || bad "$what: instance left after $((i / 20)) s: $left" \
		"(of a dead recorder: $(dead_instances))"
	[ -z "$(procs -f "-o $T/o")" ] ||
		bad "$what: processes left: $(procs -f "-o $T/o")"
	[ -z "$(tools_left)" ] || bad "$what: ${tool%%:*} left running"
}

# processes of the external tool started by this test's sessions (other
# tests may run a tool of that name meanwhile): they carry our marker
tools_left() {
	local p
	[ -n "$tool" ] || return 0
	for p in $(procs -x "${tool%%:*}"); do
		tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qx "IDLELAB_SOAK_MARK=$$" && echo "$p"
	done
}

# the phase a kill hit, from what the session left behind
phase() {
	if [ ! -e "$T/run/live.journal" ]; then
		echo "before-journal"
	elif [ "$(cat $SYS/cpuidle/current_governor)" = "$G0" ]; then
		echo "journal-before-switch"
	elif ls "$1" 2>/dev/null | grep -q '\.tmp'; then
		echo "writing-results"
	elif [ -e "$1/results.json" ]; then
		echo "switched-after-a-results-write"
	else
		echo "switched-running"
	fi
}

# a benchmark that runs an external tool, if one is installed
tool=
for t in hackbench:groups=1,loops=2000 perf-messaging:groups=1,loops=2000; do
	"$IDLELAB" live --list-bench 2>/dev/null |
		grep -q "^${t%%:*} .* available$" && { tool=$t; break; }
done
torn=0
wind_down=0
declare -A hit

# wait_for switched|results DIR: poll (2 s at most) until the governor
# is switched, or results are being written or have just been
wait_for() {
	local i
	for ((i = 0; i < 400; i++)); do
		case $1 in
		switched) [ "$(cat $SYS/cpuidle/current_governor)" != "$G0" ] &&
			return ;;
		results) ls "$2" 2>/dev/null | grep -q '^results.json' &&
			return ;;
		esac
		sleep 0.005
	done
}
for ((k = 1; k <= KILLS; k++)); do
	o=$T/o$k
	args=(--governors "$other" --bench timer --runs 3 --duration 0.1
	      --warmup 0.05 -q -o "$o")
	((k % 3 == 0)) && args+=(--record)
	((k % 4 == 1)) && [ -e /dev/cpu_dma_latency ] && args+=(--latency-limit 20)
	((k % 5 == 2)) && ((nstates > 1)) && args+=(--disable-state $((nstates - 1)))
	# an external tool (with children of its own) in some sessions
	if ((k % 3 == 1)) && [ -n "$tool" ]; then
		args[3]=$tool
	fi
	( IDLELAB_SOAK_MARK=$$ exec "$IDLELAB" live "${args[@]}" ) \
		>"$T/s.log" 2>&1 &
	BG=$!
	# a kill at a random moment, or right when the session has just
	# switched the governor, or right when it writes its results
	case $((k % 4)) in
	0)	wait_for switched "$o" ;;
	2)	wait_for results "$o" ;;
	*)	sleep "0.$(printf '%03d' $((RANDOM % 900)))" ;;
	esac
	p=$(phase "$o")
	hit[$p]=$((${hit[$p]:-0} + 1))
	kill -9 "$BG" 2>/dev/null
	wait "$BG" 2>/dev/null
	BG=
	if ((k % 10 == 5)) && [ -s "$T/run/live.journal" ] &&
	   [ -z "$(echo "$D0" | tr -d 0)" ]; then
		# a torn journal (cut after its first disable line): not
		# trusted, recovered from the header, every state enabled,
		# moved aside, exit 1
		head -n 6 "$T/run/live.journal" >"$T/j" &&
			cat "$T/j" >"$T/run/live.journal"
		"$IDLELAB" live --restore >"$T/r.log" 2>&1
		rc=$?
		[ $rc = 1 ] || bad "kill $k: torn journal: --restore exit $rc"
		[ -e "$T/run/live.journal" ] &&
			bad "kill $k: torn journal not moved aside"
		torn=$((torn + 1))
		as_found "kill $k ($p), torn journal, --restore"
	elif ((k % 2)); then
		"$IDLELAB" live --restore >"$T/r.log" 2>&1
		rc=$?
		# nothing to restore when the kill came before the journal
		[ $rc = 0 ] || bad "kill $k ($p): --restore exit $rc: $(cat "$T/r.log")"
		as_found "kill $k ($p), --restore"
	else
		"$IDLELAB" live --governors "$other" --bench timer --runs 1 \
			--duration 0.05 --warmup 0 -q -o "$T/n$k" >"$T/r.log" 2>&1
		rc=$?
		[ $rc = 0 ] || bad "kill $k ($p): next session exit $rc: $(cat "$T/r.log")"
		as_found "kill $k ($p), next session"
	fi
	rm -rf "$o" "$T/n$k"
done
echo "live: $KILLS SIGKILLs (external tool: ${tool:-none}; $torn torn" \
	"journals), host as found after each (fails: $fails; children wound" \
	"down within $wind_down ms)"
for p in before-journal journal-before-switch switched-running \
	 writing-results switched-after-a-results-write; do
	echo "  $p: ${hit[$p]:-0}"
done

# record: a SIGKILL leaves the instance; the next start removes it
left=0
for ((k = 1; k <= RKILLS; k++)); do
	"$IDLELAB" record -q -o "$T/r$k.idl" >/dev/null 2>&1 &
	pid=$!
	sleep "0.$(printf '%03d' $((RANDOM % 500)))"
	kill -9 $pid
	wait $pid 2>/dev/null
	had=$(ls $TR/instances | grep -c "^idlelab-record-$pid-")
	"$IDLELAB" record -q -o "$T/next.idl" --duration 0.05 >"$T/r.log" 2>&1 ||
		bad "record after kill $k: $(cat "$T/r.log")"
	if [ "$had" = 1 ]; then
		left=$((left + 1))
		grep -q "removed tracefs instance idlelab-record-$pid-" "$T/r.log" ||
			bad "record kill $k: no message about the stale instance"
	fi
	[ -z "$(dead_instances)" ] || bad "record kill $k: left $(dead_instances)"
	[ -e "$T/r$k.idl" ] && bad "record kill $k: a partial r$k.idl"
	rm -f "$T/next.idl"
done
echo "record: $RKILLS SIGKILLs, $left left an instance, each removed by the next start"
finish
