#!/bin/sh
# idlelab record on this machine: root, tracefs and cpuidle needed (else
# SKIP).  Checks the file is a valid trace and that the private tracefs
# instance is gone after a timed run, after SIGINT, and after an error,
# and that an instance left by a killed recorder is removed.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root"
# (cpuN/cpuidle exists only once a driver has registered: with none,
# current_driver says "none" and current_governor is still there)
[ -d /sys/devices/system/cpu/cpu0/cpuidle ] ||
	skip "no cpuidle driver ($(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null))"
TR=/sys/kernel/tracing
if [ ! -d $TR/instances ]; then
	mount -t tracefs nodev $TR 2>/dev/null || skip "no tracefs"
fi
# Step 5 makes an instance of a dead recorder: no live session nor
# another root test (live-soak.sh looks for such instances) runs meanwhile.
command -v flock >/dev/null || skip "no flock(1)"
live_lock
tmpdir
left() { ls $TR/instances 2>/dev/null | grep "^idlelab-record-$1-" ; }

# 1. a timed run: valid file, summary, instance removed
"$IDLELAB" record -o "$T/a.idl" --duration 1 2>"$T/err" &
pid=$!
wait $pid || bad "record failed: $(cat "$T/err")"
grep -q 'idle periods' "$T/err" || bad "no summary: $(cat "$T/err")"
"$IDLELAB" info "$T/a.idl" >"$T/info" || bad "info rejects the recording"
grep -q '^clock: *mono' "$T/info" || bad "clock not mono"
grep -q '^HZ: *[1-9]' "$T/info" || bad "HZ unknown"
[ -z "$(left $pid)" ] || bad "instance left: $(left $pid)"

# 2. SIGINT stops a run without duration; the file is still written
"$IDLELAB" record -q -o "$T/b.idl" &
pid=$!
sleep 1
[ -n "$(left $pid)" ] || bad "no instance while recording"
kill -INT $pid
wait $pid || bad "record after SIGINT: status $?"
"$IDLELAB" info "$T/b.idl" >/dev/null || bad "info rejects the SIGINT run"
[ -z "$(left $pid)" ] || bad "instance left after SIGINT"

# 3. with a command: stops when it exits
"$IDLELAB" record -q -o "$T/c.idl" -- sleep 0.3 &
pid=$!
wait $pid || bad "record -- sleep failed"
[ -z "$(left $pid)" ] || bad "instance left after COMMAND"

# 4. an error after the instance exists (output directory missing)
"$IDLELAB" record -q -o "$T/no/such/dir/d.idl" --duration 0.2 2>"$T/err" &
pid=$!
wait $pid && bad "record into a missing directory succeeded"
[ -z "$(left $pid)" ] || bad "instance left after an error"

# 5. an instance left by a killed recorder (its PID is gone) is removed
# by the next start, with a message; one of a living PID is kept
sh -c 'exit 0' & dead=$!
wait $dead
mkdir $TR/instances/idlelab-record-$dead-0badc0de
mkdir $TR/instances/idlelab-record-$$-0badc0de
"$IDLELAB" record -q -o "$T/s.idl" --duration 0.2 2>"$T/err" ||
	bad "record with a stale instance: $(cat "$T/err")"
[ -z "$(left $dead)" ] || bad "stale instance of PID $dead kept"
grep -q "removed tracefs instance idlelab-record-$dead-0badc0de, left by a killed recorder" "$T/err" ||
	bad "no message on the stale instance: $(cat "$T/err")"
[ -n "$(left $$)" ] || bad "the instance of a living PID was removed"
rmdir $TR/instances/idlelab-record-$$-0badc0de $TR/instances/idlelab-record-$dead-0badc0de 2>/dev/null

# 6. usage
"$IDLELAB" record --help | grep -q '^usage: idlelab record' || bad "--help"
"$IDLELAB" record --cpus 0-x -o "$T/e.idl" 2>/dev/null
[ $? -eq 2 ] || bad "bad --cpus not a usage error"
finish
