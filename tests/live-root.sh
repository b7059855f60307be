#!/bin/sh
# idlelab live on the real kernel (root and a real cpuidle only, else
# SKIP): switch through every governor and back; restore after an error,
# after SIGTERM, after SIGKILL (by --restore and by the next start);
# lock contention.  Every check reads sysfs itself.  Short: about 20 s.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

SYS=/sys/devices/system/cpu
tmpdir

# 0. The whole flow on a copy of a fixture tree: needs no root and does
# not touch the host (the benchmark itself runs for real).
F=$T/fixture
mkdir "$F"
cp -r "$top_srcdir/tests/fixtures/sysfs-live/before" "$F/sys"
fx() {
	IDLELAB_SYSFS_ROOT=$F/sys IDLELAB_RUN_DIR=$F/run \
	IDLELAB_POWERCAP_ROOT=$F/none "$IDLELAB" live "$@"
}
fx --governors all --bench pingpong --runs 2 --duration 0.1 --warmup 0 \
	-q -o "$F/out" > "$F/log" 2>&1 || bad "fixture run: $(cat $F/log)"
[ "$(cat $F/sys/cpuidle/current_governor)" = teo ] && \
	[ "$(cat $F/sys/cpu1/cpuidle/state2/disable)" = 1 ] && \
	[ "$(cat $F/sys/cpu0/cpuidle/state2/disable)" = 0 ] || bad "fixture not restored"
[ "$(ls $F/out/runs | wc -l)" = 6 ] || bad "fixture: $(ls $F/out/runs | wc -l) runs, want 6"
grep -q '"configs": \[\s*"teo",' "$F/out/results.json" || \
	tr -d ' \n' < "$F/out/results.json" | grep -q '"configs":\["teo","ladder","menu"\]' || \
	bad "fixture: configs not teo,ladder,menu"
[ -f "$F/run/live.journal" ] && bad "fixture journal left"
fx --governors haltpoll -q > "$F/log" 2>&1
[ $? = 2 ] && grep -q "available: ladder menu teo" "$F/log" || bad "fixture refusal: $(cat $F/log)"
IDLELAB_RUN_DIR=$F/run "$IDLELAB" live --sysfs-root "$F/nonexistent" -q > "$F/log" 2>&1
[ $? = 1 ] && grep -q "no cpuidle here" "$F/log" || bad "no-cpuidle refusal: $(cat $F/log)"
# cpuidle without a driver (as on a VM without cpuidle-haltpoll): the
# governor files are there, no CPU has a cpuidle directory
mkdir -p "$F/nodrv/cpuidle" "$F/nodrv/cpu0"
echo menu > "$F/nodrv/cpuidle/current_governor"
echo none > "$F/nodrv/cpuidle/current_driver"
echo "ladder menu" > "$F/nodrv/cpuidle/available_governors"
IDLELAB_RUN_DIR=$F/run "$IDLELAB" live --sysfs-root "$F/nodrv" -q > "$F/log" 2>&1
[ $? = 1 ] && grep -q "no idle states: $F/nodrv/cpu0/cpuidle does not exist (no cpuidle driver is registered; current_driver: none)" "$F/log" &&
	[ "$(cat $F/nodrv/cpuidle/current_governor)" = menu ] ||
	bad "no-driver refusal: $(cat $F/log)"
# a missing tool is skipped, naming its Debian package
( PATH=/nonexistent; fx --governors menu --bench hackbench,pingpong --runs 1 \
	--duration 0.1 --warmup 0 -q -o "$F/skip" ) > "$F/log" 2>&1
grep -q "skipping hackbench: hackbench not found (install the Debian package rt-tests)" "$F/log" \
	&& [ "$(ls $F/skip/runs | wc -l)" = 1 ] || bad "missing tool: $(cat $F/log)"
# someone else switching the governor mid-run: that run is discarded
# and made again
( i=0; while [ "$(cat $F/sys/cpuidle/current_governor)" != menu ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1)); done; echo ladder > "$F/sys/cpuidle/current_governor" ) &
fx --governors menu --bench timer --runs 2 --duration 1 --warmup 0 -q -o "$F/dis" > "$F/log" 2>&1
wait
grep -q "changed to ladder by someone else; run discarded" "$F/log" && \
	grep -q '"discarded_runs": 1' "$F/dis/results.json" && [ "$(ls $F/dis/runs | wc -l)" = 2 ] &&
	grep -q '"complete": true' "$F/dis/results.json" \
	|| bad "foreign governor switch: $(cat $F/log)"
rm -rf "$F"
[ "$fails" = 0 ] && ok "fixture-tree session, restore and refusals" || exit 1

[ "$(id -u)" = 0 ] || skip "not root"
[ -w $SYS/cpuidle/current_governor ] || skip "no cpuidle"
# (cpuN/cpuidle exists only once a driver has registered)
[ -d $SYS/cpu0/cpuidle ] ||
	skip "no cpuidle driver ($(cat $SYS/cpuidle/current_driver))"
unset IDLELAB_SYSFS_ROOT

# Hold the real session lock for the whole test: no real idlelab live
# session (nor another copy of this test, from another build tree) runs
# meanwhile.  The sessions below use a private journal and lock.
command -v flock > /dev/null || skip "no flock(1)"
live_lock

export IDLELAB_RUN_DIR=$T/run
G0=$(cat $SYS/cpuidle/current_governor)
D0=$(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')
BG=

# Safety net: whatever happens, put the host back as found.
cleanup() {
	[ -n "$BG" ] && kill -9 "$BG" 2>/dev/null
	echo "$G0" > $SYS/cpuidle/current_governor
	for f in $SYS/cpu*/cpuidle/state*/disable; do echo 0 > "$f"; done
}

gov() { cat $SYS/cpuidle/current_governor; }
disables() { cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n'; }
as_found() {
	if [ "$(gov)" = "$G0" ] && [ "$(disables)" = "$D0" ]; then
		ok "$1: governor $(gov), disable $(disables)"
	else
		bad "$1: governor $(gov) (want $G0), disable $(disables) (want $D0)"
	fi
}
# Wait (5 s at most) until the session has switched the governor away.
wait_changed() {
	i=0
	while [ "$(gov)" = "$G0" ] && [ $i -lt 50 ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ "$(gov)" != "$G0" ]
}
other=$(tr ' ' '\n' < $SYS/cpuidle/available_governors | grep -v "^$G0\$" | grep . | head -1)
[ -n "$other" ] || skip "only one governor"

# 1. every available governor, and back
"$IDLELAB" live --governors all --bench pingpong --runs 1 --duration 0.2 \
	--warmup 0 -q -o "$T/all" > "$T/all.log" 2>&1
rc=$?
[ $rc = 0 ] && ok "all governors: exit 0" || { bad "all governors: exit $rc"; cat "$T/all.log"; }
n=$(ls "$T/all/runs" | wc -l)
navail=$(wc -w < $SYS/cpuidle/available_governors)
[ "$n" = "$navail" ] && ok "one run per governor ($n)" || bad "$n runs for $navail governors"
for g in $(cat $SYS/cpuidle/available_governors); do
	grep -q "\"$g\"" "$T/all/results.json" || bad "results lack $g"
done
as_found "after all governors"

# 2. an error in the middle (a benchmark that fails) restores
"$IDLELAB" live --governors "$other" --bench timer:rates=0 --disable-state 0 \
	-q -o "$T/err" > "$T/err.log" 2>&1
rc=$?
[ $rc != 0 ] && ok "failing benchmark: exit $rc" || bad "failing benchmark: exit 0"
grep -q "timer: bad rates" "$T/err.log" || bad "no error message: $(cat $T/err.log)"
as_found "after an error"

# 3. SIGTERM in the middle
"$IDLELAB" live --governors "$other" --bench timer --runs 20 --duration 1 \
	--disable-state 0 -q -o "$T/term" > "$T/term.log" 2>&1 &
BG=$!
if wait_changed; then
	[ "$(disables | cut -c1)" = 1 ] && ok "state 0 disabled during the session" \
		|| bad "state 0 not disabled during the session"
fi
sleep 0.5
kill -TERM $BG; wait $BG; rc=$?; BG=
[ $rc = 143 ] && ok "SIGTERM: exit 143" || bad "SIGTERM: exit $rc"
as_found "after SIGTERM"
grep -q '"complete": false' "$T/term/results.json" 2>/dev/null && ok "partial results" \
	|| bad "no partial results after SIGTERM"

# 4. SIGKILL, then --restore
"$IDLELAB" live --governors "$other" --bench timer --runs 20 --duration 1 \
	--disable-state 0 -q -o "$T/kill" > /dev/null 2>&1 &
BG=$!
wait_changed || bad "session did not switch the governor"
kill -KILL $BG; wait $BG 2>/dev/null; BG=
[ "$(gov)" = "$other" ] && ok "after SIGKILL the governor is still $other" \
	|| bad "after SIGKILL: governor $(gov)"
[ -f "$IDLELAB_RUN_DIR/live.journal" ] && ok "journal left behind" || bad "no journal"
"$IDLELAB" live --restore > "$T/restore.log" 2>&1 || bad "--restore failed"
grep -q "restored governor $G0" "$T/restore.log" && ok "--restore says so" \
	|| bad "--restore message: $(cat $T/restore.log)"
as_found "after SIGKILL + --restore"

# 5. SIGKILL, then the next start restores first
"$IDLELAB" live --governors "$other" --bench timer --runs 20 --duration 1 \
	-q -o "$T/kill2" > /dev/null 2>&1 &
BG=$!
wait_changed || bad "session did not switch the governor"
kill -KILL $BG; wait $BG 2>/dev/null; BG=
"$IDLELAB" live --governors "$G0" --bench pingpong --runs 1 --duration 0.1 \
	--warmup 0 -q -o "$T/next" > "$T/next.log" 2>&1 || bad "next start failed"
grep -q "previous session was interrupted; restored governor $G0" "$T/next.log" \
	&& ok "next start restores first" || bad "next start: $(cat $T/next.log)"
as_found "after SIGKILL + next start"

# 6. lock contention, then SIGHUP
"$IDLELAB" live --governors "$other" --bench timer --runs 20 --duration 1 \
	-q -o "$T/lock1" > /dev/null 2>&1 &
BG=$!
wait_changed || bad "session did not switch the governor"
"$IDLELAB" live --governors "$G0" --bench pingpong --runs 1 --duration 0.1 \
	-q -o "$T/lock2" > "$T/lock2.log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "another idlelab live session is running (pid $BG" "$T/lock2.log" \
	&& ok "second session refused" || bad "second session: exit $rc, $(cat $T/lock2.log)"
[ "$(gov)" = "$other" ] && ok "first session undisturbed" || bad "governor $(gov)"
kill -HUP $BG; wait $BG; rc=$?; BG=
[ $rc = 129 ] && ok "SIGHUP: exit 129" || bad "SIGHUP: exit $rc"
as_found "after SIGHUP"

# 7. --record writes a trace per run and leaves no tracefs instance
if [ -d /sys/kernel/tracing/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	"$IDLELAB" live --governors "$other" --bench timer --runs 1 --duration 0.3 \
		--warmup 0 --record -q -o "$T/rec" > "$T/rec.log" 2>&1
	rc=$?
	[ $rc = 0 ] && [ -s "$T/rec/runs/001-$other-timer.trace" ] && ok "--record: trace written" \
		|| bad "--record: exit $rc, $(cat $T/rec.log)"
	# a leaked instance is one whose recorder process is gone (other
	# sessions on this host may be recording right now)
	leaked=
	for i in $(ls /sys/kernel/tracing/instances | grep "^idlelab-record-"); do
		pid=$(echo "$i" | cut -d- -f3)
		kill -0 "$pid" 2>/dev/null || leaked="$leaked $i"
	done
	[ -z "$leaked" ] && ok "--record: no instance left" || bad "--record left$leaked"
	as_found "after --record"
fi

# 8. --latency-limit holds /dev/cpu_dma_latency only during the session
if [ -r /dev/cpu_dma_latency ]; then
	L0=$(od -An -td4 /dev/cpu_dma_latency | tr -d ' ')
	"$IDLELAB" live --governors "$other" --bench timer --runs 1 --duration 1.5 \
		--warmup 0 --latency-limit 5 -q -o "$T/lat" > /dev/null 2>&1 &
	BG=$!
	wait_changed
	sleep 0.3
	L1=$(od -An -td4 /dev/cpu_dma_latency | tr -d ' ')
	wait $BG; BG=
	L2=$(od -An -td4 /dev/cpu_dma_latency | tr -d ' ')
	[ "$L1" = 5 ] && [ "$L2" = "$L0" ] && ok "latency limit 5 held, then $L2 again" \
		|| bad "latency limit: before $L0, during $L1, after $L2"
	as_found "after --latency-limit"
fi

# 9. refusals
if command -v setpriv > /dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$IDLELAB" live -q \
		> "$T/r.log" 2>&1
	[ $? = 1 ] && grep -q "must be run as root" "$T/r.log" && ok "non-root refused" \
		|| bad "non-root: $(cat $T/r.log)"
fi
"$IDLELAB" live --governors nosuch -q > "$T/r.log" 2>&1
[ $? = 2 ] && grep -q "available: " "$T/r.log" && ok "unknown governor refused" \
	|| bad "unknown governor: $(cat $T/r.log)"
"$IDLELAB" live --disable-state 99 -q > "$T/r.log" 2>&1
[ $? = 2 ] && grep -q "out of range" "$T/r.log" && ok "bad state index refused" \
	|| bad "bad state index: $(cat $T/r.log)"
as_found "at the end"

echo "$passes passed, $fails failed"
finish
