#!/bin/sh
# idlelab live when things go wrong (issue 18): a journal cut short or
# damaged, the children of a killed session (benchmark tools and their
# own children, the recorder), temporary files a killed session left.
# Parts 1-4 run on a copy of a fixture sysfs tree (no root needed; the
# benchmarks run for real); part 5 needs root and tracefs.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"

SYS=/sys/devices/system/cpu

tmpdir
BG=

fresh() {
	rm -rf "$T/sys" "$T/run"
	cp -r "$top_srcdir/tests/fixtures/sysfs-live/before" "$T/sys"
}
fx() {
	IDLELAB_SYSFS_ROOT=$T/sys IDLELAB_RUN_DIR=$T/run \
	IDLELAB_POWERCAP_ROOT=$T/none "$IDLELAB" live "$@"
}
fgov() { cat "$T/sys/cpuidle/current_governor"; }
fdis() { cat "$T/sys"/cpu*/cpuidle/state*/disable | tr -d '\n'; }
# live (not zombie) processes whose command line holds $1
alive() {
	for p in $(pgrep -f -- "$1"); do
		[ "$(ps -o stat= -p "$p" | cut -c1)" = Z ] || echo "$p"
	done
}
# start a fixture session in the background and wait until it has
# switched the governor to $1 (the fixture starts at teo)
fx_bg() {
	want=$1; shift
	# exec: $BG is idlelab itself, not a subshell
	( IDLELAB_SYSFS_ROOT=$T/sys IDLELAB_RUN_DIR=$T/run \
	  IDLELAB_POWERCAP_ROOT=$T/none exec "$IDLELAB" live "$@" ) \
		> "$T/bg.log" 2>&1 &
	BG=$!
	i=0
	while [ "$(fgov)" != "$want" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ "$(fgov)" = "$want" ]
}
cleanup() {
	[ -n "$BG" ] && kill -9 "$BG" 2>/dev/null
	for p in $(alive "sleep 271828"); do kill -9 "$p"; done
}

# 1. A journal torn after its first disable line (item 1): never reported
# as restored nor deleted; every state enabled, the header's governor.
fresh
fx_bg menu --governors menu --bench timer --runs 20 --duration 1 \
	--warmup 0 --disable-state 1 -q -o "$T/o1" || bad "1: no switch"
kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
# cpu0 POLL C1 C6, cpu1 POLL C1 C6; the fixture has cpu1 C6 disabled
[ "$(fdis)" = 010011 ] || bad "1: state 1 not disabled by the session: $(fdis)"
sed -i '/^disable 0 0 0$/q' "$T/run/live.journal"
fx --restore > "$T/r1.log" 2>&1
rc=$?
[ $rc = 1 ] && ok "1: torn journal: --restore exits 1" \
	|| bad "1: torn journal: --restore exit $rc: $(cat "$T/r1.log")"
grep -q "incomplete journal moved aside" "$T/r1.log" && \
	! grep -q "restored governor" "$T/r1.log" && ok "1: says so" \
	|| bad "1: message: $(cat "$T/r1.log")"
[ "$(fdis)" = 000000 ] && [ "$(fgov)" = teo ] \
	&& ok "1: every state enabled, governor teo from the header" \
	|| bad "1: governor $(fgov), disable $(fdis) (want teo, 000000)"
[ ! -e "$T/run/live.journal" ] && ls "$T/run"/live.journal.bad-* > /dev/null \
	&& ok "1: journal moved aside" || bad "1: journal: $(ls "$T/run")"

# on a fresh tree, --restore of the journal $1 (printf's format, %s:
# $T), its messages in $2; $rc: its exit status
restore_journal() {
	fresh
	mkdir -p "$T/run"
	# shellcheck disable=SC2059
	printf "$1" "$T" > "$T/run/live.journal"
	fx --restore > "$2" 2>&1
	rc=$?
}

# 2. A damaged journal (item 2) does not block later runs.
restore_journal 'idlelab-live-journal 1\npid 1\nroot %s/sys\ngovernor menu\ndisable 0 0 0\n#@!garbage\n' \
	"$T/r2.log"
[ $rc = 1 ] && grep -q "line 6: cannot parse the line" "$T/r2.log" \
	&& ok "2: damaged journal: exit 1, the line named" \
	|| bad "2: --restore exit $rc: $(cat "$T/r2.log")"
fx --restore > "$T/r2b.log" 2>&1 && grep -q "nothing to restore" "$T/r2b.log" \
	&& ok "2: the next --restore is not blocked" \
	|| bad "2: next --restore: $(cat "$T/r2b.log")"
fx --governors ladder --bench pingpong --runs 1 --duration 0.1 --warmup 0 \
	-q -o "$T/o2" > "$T/r2c.log" 2>&1 && [ "$(fgov)" = menu ] \
	&& ok "2: the next session runs and restores" \
	|| bad "2: next session: $(cat "$T/r2c.log"), governor $(fgov)"

# 2b. Signals whose default ends a process (QUIT, USR2, ALRM, ...) stop
# the session as INT and TERM do: the host is put back, no journal left.
for sig in QUIT USR2 ALRM; do
	fresh
	fx_bg menu --governors menu --bench timer --runs 20 --duration 1 \
		--warmup 0 --disable-state 1 -q -o "$T/o2$sig" ||
		bad "2b $sig: no switch"
	kill -s "$sig" "$BG"; wait "$BG" 2>/dev/null; BG=
	[ "$(fgov)" = teo ] && [ "$(fdis)" = 000001 ] &&
		[ ! -e "$T/run/live.journal" ] &&
		ok "2b: SIG$sig: governor and states put back" ||
		bad "2b: SIG$sig: governor $(fgov), disable $(fdis), run: $(ls "$T/run")"
done

# 2c. A relative sysfs root is journaled as an absolute path: --restore
# from another directory finds the tree.
fresh
( cd "$T" && IDLELAB_SYSFS_ROOT=sys IDLELAB_RUN_DIR=$T/run \
  IDLELAB_POWERCAP_ROOT=$T/none exec "$IDLELAB" live --governors menu \
	--bench timer --runs 20 --duration 1 --warmup 0 -q -o "$T/o2c" ) \
	> "$T/bg.log" 2>&1 &
BG=$!
i=0
while [ "$(fgov)" != menu ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
grep -q "^root $T/sys\$" "$T/run/live.journal" ||
	bad "2c: journal root: $(grep '^root' "$T/run/live.journal")"
( cd / && IDLELAB_SYSFS_ROOT=$T/sys IDLELAB_RUN_DIR=$T/run \
  IDLELAB_POWERCAP_ROOT=$T/none "$IDLELAB" live --restore ) \
	> "$T/r2c.log" 2>&1 && [ "$(fgov)" = teo ] &&
	ok "2c: --restore from / puts a relative root's tree back" ||
	bad "2c: --restore: $(cat "$T/r2c.log"), governor $(fgov)"

# 2d. A complete journal that cannot be applied whole (issue 32, item
# 4): a CPU went offline after the kill (the kernel removes its cpuidle
# directory), or a format 1 journal names a root that is gone.  What
# can be put back is, the rest is said, the journal is moved aside, exit
# 1 once; the next --restore and session are not blocked.
fresh
fx_bg menu --governors menu --bench timer --runs 5 --duration 5 \
	--warmup 0 --disable-state 1 -q -o "$T/o2d" || bad "2d: no switch"
i=0
while [ "$(cat "$T/sys/cpu0/cpuidle/state1/disable")" != 1 ] && [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
rm -rf "$T/sys/cpu1/cpuidle"
fx --restore > "$T/r2d.log" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "NOT restored: cpu1 state1" "$T/r2d.log" &&
	grep -q "journal is moved aside" "$T/r2d.log" && [ "$(fgov)" = teo ] &&
	[ "$(cat "$T/sys/cpu0/cpuidle/state1/disable")" = 0 ] &&
	ok "2d: a CPU gone: the rest restored, said, moved aside" ||
	bad "2d: exit $rc, governor $(fgov): $(cat "$T/r2d.log")"
fx --restore > "$T/r2d2.log" 2>&1 && grep -q "nothing to restore" "$T/r2d2.log" &&
	fx --governors menu --bench timer --runs 1 --duration 0.2 --warmup 0 \
		-q -o "$T/o2d-next" > "$T/r2d3.log" 2>&1 &&
	ok "2d: the next --restore and session run" ||
	bad "2d: blocked: $(cat "$T/r2d2.log" "$T/r2d3.log")"
restore_journal 'idlelab-live-journal 1\npid 1\nroot %s/gone\ngovernor menu\n' \
	"$T/r2e.log"
fx --restore > "$T/r2e2.log" 2>&1 && [ $rc -eq 1 ] &&
	grep -q "nothing to restore" "$T/r2e2.log" &&
	ok "2d: a format 1 journal of a root that is gone: exit 1 once" ||
	bad "2d: format 1, root gone: exit $rc: $(cat "$T/r2e.log" "$T/r2e2.log")"

# 3. Benchmark tools and their own children die with a killed session
# (item 4): a stand-in hackbench that starts a child of its own.
fresh
mkdir -p "$T/bin"
printf '#!/bin/sh\nsleep 271828 &\nwait\n' > "$T/bin/hackbench"
chmod +x "$T/bin/hackbench"
# start a session of the stand-in tool (output $1, $2 runs of $3 s) and
# wait for the tool's child; $tool: the tool's pid
fake_tool_bg() {
	PATH=$T/bin:$PATH fx_bg menu --governors menu --bench hackbench \
		--runs "$2" --duration "$3" --warmup 0 -q -o "$1" || return 1
	i=0
	while [ -z "$(alive "sleep 271828")" ] && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
	tool=$(alive "$T/bin/hackbench")
}
# wait up to 5 s for the background session to end ($i: 50 ms steps)
wait_bg_end() {
	i=0
	while kill -0 "$BG" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.05; i=$((i + 1))
	done
}
fake_tool_bg "$T/o3" 5 5 || bad "3: no switch"
[ -n "$(alive "sleep 271828")" ] || bad "3: the tool's child never ran"
kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
i=0
while [ -n "$(alive "sleep 271828")$(alive "$T/bin/hackbench")" ] && [ $i -lt 40 ]; do
	sleep 0.05; i=$((i + 1))
done
left=$(alive "sleep 271828")$(alive "$T/bin/hackbench")
[ -z "$left" ] && ok "3: the tool and its child died with the session ($((i * 50)) ms)" \
	|| bad "3: still running 2 s after SIGKILL: $left"
fx --restore > /dev/null 2>&1

# 3b. SIGKILL of the session and its tool's guardian together (pkill -9
# idlelab matches both; issue 32, item 4): the tool dies with its
# guardian, and --restore kills the processes the tool started, which
# carry the session's mark.  The session is stopped first and the
# guardian killed before it: killed the other way round, the guardian
# may hear of the session's death in between and end the group itself
# (it did once, in the sanitizer build), which leaves --restore nothing.
fresh
fake_tool_bg "$T/o3b" 5 5 || bad "3b: no switch"
guardian=$(ps -o ppid= -p "$tool" | tr -d ' ')
kill -STOP "$BG"
kill -9 "$guardian"
kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
sleep 0.5
[ -z "$(alive "$T/bin/hackbench")" ] && ok "3b: the tool died with its guardian" ||
	bad "3b: the tool runs on after its guardian's SIGKILL"
fx --restore > "$T/r3b.log" 2>&1
sleep 0.2
[ -z "$(alive "sleep 271828")" ] && grep -q "killed 1 process the interrupted" "$T/r3b.log" &&
	[ "$(fgov)" = teo ] && ok "3b: --restore killed the tool's child" ||
	bad "3b: after --restore: $(alive "sleep 271828") left, $(cat "$T/r3b.log")"

# 3c. SIGKILL of the guardian alone: the session sees it at once (it
# waited for the tool's output until the run's time limit), ends what
# is left of the group, and goes on.
fresh
fake_tool_bg "$T/o3c" 1 20 || bad "3c: no switch"
kill -9 "$(ps -o ppid= -p "$tool" | tr -d ' ')"
wait_bg_end
wait "$BG" 2>/dev/null; BG=
[ $i -lt 100 ] && [ -z "$(alive "sleep 271828")" ] && [ "$(fgov)" = teo ] &&
	grep -q "guardian was killed" "$T/bg.log" &&
	ok "3c: a killed guardian ends the run ($((i * 50)) ms)" ||
	bad "3c: $((i * 50)) ms, left: $(alive "sleep 271828"), $(tail -2 "$T/bg.log")"

# 3d. Option values inside their range that would outlast the run (a
# worker busy for 1000 s, a pause of 1000 s): --duration and SIGTERM
# still end it.
fresh
for b in wakeup:work=1e9 pingpong:gap=1e9; do
	s=$(date +%s)
	( IDLELAB_SYSFS_ROOT=$T/sys IDLELAB_RUN_DIR=$T/run \
	  IDLELAB_POWERCAP_ROOT=$T/none exec timeout -s KILL 30 "$IDLELAB" \
	  live --governors menu --bench $b --runs 1 --duration 1 --warmup 0 \
	  -q -o "$T/o3d-$b" ) > "$T/r3d.log" 2>&1
	rc=$? d=$(($(date +%s) - s))
	fx --restore > /dev/null 2>&1
	[ $rc -eq 0 ] && [ $d -le 10 ] && [ "$(fgov)" = teo ] &&
		ok "3d: $b ends with --duration 1 ($d s)" ||
		bad "3d: $b: exit $rc after $d s: $(tail -2 "$T/r3d.log")"
	fx_bg menu --governors menu --bench $b --runs 1 --duration 600 \
		--warmup 0 -q -o "$T/o3d-term-$b" || bad "3d: $b: no switch"
	sleep 0.5
	kill -TERM "$BG"
	wait_bg_end
	kill -9 "$BG" 2>/dev/null && fx --restore > /dev/null 2>&1
	wait "$BG" 2>/dev/null; BG=
	[ $i -lt 100 ] && [ "$(fgov)" = teo ] &&
		ok "3d: $b ends on SIGTERM ($((i * 50)) ms)" ||
		bad "3d: $b: SIGTERM: $((i * 50)) ms, governor $(fgov)"
done

# 4. Temporary files a killed session left in its output directory are
# removed by the next run that writes there (item 9).
fresh
mkdir -p "$T/o4/runs"
: > "$T/o4/results.json.tmpAbC123"
: > "$T/o4/results.json.tmp999999999.XyZ789"
touch -d '2 hours ago' "$T/o4/results.json.tmpAbC123"
fx --governors menu --bench pingpong --runs 1 --duration 0.1 --warmup 0 \
	-q -o "$T/o4" > "$T/r4.log" 2>&1 || bad "4: session: $(cat "$T/r4.log")"
left=$(ls "$T/o4" | grep '\.tmp')
[ -z "$left" ] && ok "4: stale temporary files removed" \
	|| bad "4: left: $left"

# 4b. A CPU without cpuidle (offline: the kernel removes the directory)
# below one that has it, and a libpfm4 that cannot be loaded: the state
# is disabled on both CPUs and put back, and the session says why it has
# no perf counters.
fresh
mv "$T/sys/cpu1" "$T/sys/cpu2"
mkdir "$T/sys/cpu1" "$T/fakepfm"
: > "$T/fakepfm/libpfm.so.4"
D0=$(fdis)
( LD_LIBRARY_PATH=$T/fakepfm IDLELAB_SYSFS_ROOT=$T/sys \
  IDLELAB_RUN_DIR=$T/run IDLELAB_POWERCAP_ROOT=$T/none exec "$IDLELAB" \
  live --governors menu --bench timer --runs 1 --duration 1 --warmup 0 \
  --disable-state 1 -o "$T/o4b" ) > "$T/r4b.log" 2>&1 &
BG=$!
i=0
while [ "$(cat "$T/sys/cpu2/cpuidle/state1/disable")" != 1 ] &&
      [ $i -lt 100 ]; do
	sleep 0.05; i=$((i + 1))
done
[ "$(cat "$T/sys/cpu0/cpuidle/state1/disable")" = 1 ] &&
	[ "$(cat "$T/sys/cpu2/cpuidle/state1/disable")" = 1 ] &&
	ok "4b: state 1 disabled on cpu0 and cpu2, past the gap" ||
	bad "4b: state 1 not disabled on both CPUs"
wait "$BG" && BG= || bad "4b: session: $(cat "$T/r4b.log")"
BG=
[ "$(fdis)" = "$D0" ] && ok "4b: disable values restored" ||
	bad "4b: disable values $(fdis), were $D0"
grep -q "perf counters: n/a, libpfm4: " "$T/r4b.log" &&
	grep -q '"error": "libpfm4: ' "$T/o4b/results.json" &&
	ok "4b: no libpfm4, said so" ||
	bad "4b: no word of libpfm4: $(cat "$T/r4b.log")"

# 4c. An output directory that holds an earlier session's results is
# refused before anything runs (exit 2, nothing touched); --overwrite
# replaces those results (issue 32, item 4: the runs were mixed).
fresh
ls "$T/o4/runs" > "$T/o4.before"
fx --governors menu --bench pingpong --runs 1 --duration 0.1 --warmup 0 \
	-q -o "$T/o4" > "$T/r4c.log" 2>&1
rc=$?
ls "$T/o4/runs" > "$T/o4.after"
[ $rc -eq 2 ] && grep -q "holds the results of an earlier session" "$T/r4c.log" &&
	cmp -s "$T/o4.before" "$T/o4.after" && [ "$(fgov)" = teo ] &&
	[ ! -e "$T/run/live.journal" ] &&
	ok "4c: an earlier session's results: exit 2, nothing touched" ||
	bad "4c: exit $rc: $(cat "$T/r4c.log")"
fx --governors ladder --bench timer --runs 2 --duration 0.1 --warmup 0 \
	--overwrite -q -o "$T/o4" > "$T/r4c.log" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(ls "$T/o4/runs" | grep -c '^[0-9][0-9][0-9]-ladder-timer')" = 2 ] &&
	[ "$(ls "$T/o4/runs" | wc -l)" = 2 ] &&
	ok "4c: --overwrite: only the new session's runs" ||
	bad "4c: --overwrite: exit $rc, runs: $(ls "$T/o4/runs" | tr '\n' ' ') $(cat "$T/r4c.log")"

# 4d. A run during which someone else changed the governor is discarded
# and made again; one that can never be kept leaves the results not
# complete, and compare says so; results written between runs say
# "complete": false (issue 32, item 4).
fresh
# (3 s runs: the check and the switch below must fall inside the second
# run on a loaded machine too)
fx_bg menu --governors menu --bench timer --runs 2 --duration 3 \
	--warmup 0 -q -o "$T/o4d" || bad "4d: no switch"
i=0
while [ ! -e "$T/o4d/results.json" ] && [ $i -lt 200 ]; do
	sleep 0.05; i=$((i + 1))
done
python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["live"]["complete"] is not False)' \
	"$T/o4d/results.json" && "$IDLELAB" compare "$T/o4d" 2>&1 >/dev/null |
	grep -q "did not complete" &&
	ok "4d: results between runs: complete false, compare warns" ||
	bad "4d: results between runs: $(head -c 300 "$T/o4d/results.json")"
echo ladder > "$T/sys/cpuidle/current_governor"
wait "$BG"; rc=$?; BG=
python3 - "$T/o4d/results.json" <<'PY' && [ $rc -eq 0 ] &&
import json, sys
r = json.load(open(sys.argv[1]))
assert r["live"]["complete"] is True and r["live"]["discarded_runs"] == 1
assert len(r["benchmarks"][0]["values"]["menu"]) == 2, r["benchmarks"][0]
PY
	[ -z "$("$IDLELAB" compare "$T/o4d" 2>&1 >/dev/null)" ] &&
	ok "4d: a discarded run made again: 2 of 2 runs, complete" ||
	bad "4d: discarded run: exit $rc, $(grep -o '"discarded_runs[^,]*' "$T/o4d/results.json")"
fresh
fx_bg menu --governors menu --bench timer --runs 1 --duration 0.3 \
	--warmup 0 -q -o "$T/o4e" || bad "4e: no switch"
while kill -0 "$BG" 2>/dev/null; do
	echo ladder > "$T/sys/cpuidle/current_governor"; sleep 0.02
done
wait "$BG"; rc=$?; BG=
python3 - "$T/o4e/results.json" <<'PY' && [ $rc -eq 0 ] &&
import json, sys
r = json.load(open(sys.argv[1]))
assert r["live"]["complete"] is False and r["live"]["missing_runs"] == 1
assert r["live"]["discarded_runs"] == 3
PY
	"$IDLELAB" compare "$T/o4e" 2>&1 >/dev/null | grep -q "could not keep 1 run" &&
	ok "4d: a run never kept: not complete, compare warns" ||
	bad "4d: run never kept: exit $rc, $(grep -o '"[a-z_]*runs": [0-9]*\|"complete": [a-z]*' "$T/o4e/results.json" | tr '\n' ' ')"
fx --restore > /dev/null 2>&1

# 5. (root, tracefs) After SIGKILL of a recording session, --restore at
# once is not refused (item 3): the recorder holds no lock, and its
# tracefs instance goes with it.
if [ "$(id -u)" != 0 ] || [ ! -w $SYS/cpuidle/current_governor ] ||
   [ ! -d $SYS/cpu0/cpuidle ] ||
   [ ! -d /sys/kernel/tracing/instances ] || ! command -v flock > /dev/null; then
	echo "SKIP: part 5 needs root, a cpuidle driver, tracefs and flock(1)"
else
	# the real lock, as tests/live-root.sh does: no real session meanwhile
	live_lock
	G0=$(cat $SYS/cpuidle/current_governor)
	D0=$(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')
	other=$(tr ' ' '\n' < $SYS/cpuidle/available_governors | grep -v "^$G0\$" | grep . | head -1)
	export IDLELAB_RUN_DIR=$T/rrun
	"$IDLELAB" live --governors "$other" --bench timer --runs 20 --duration 1 \
		--warmup 0 --record -q -o "$T/o5" > "$T/r5.log" 2>&1 &
	BG=$!
	i=0
	# the instance of this session's recorder (a child of $BG): other
	# tests may be recording meanwhile
	mine() {
		for c in $(pgrep -P "$BG"); do
			ls /sys/kernel/tracing/instances | grep "^idlelab-record-$c-"
		done | head -1
	}
	while [ -z "$(mine)" ] && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	inst=$(mine)
	rpid=$(echo "$inst" | cut -d- -f3)
	sleep 0.3
	kill -9 "$BG"; wait "$BG" 2>/dev/null; BG=
	"$IDLELAB" live --restore > "$T/r5b.log" 2>&1
	rc=$?
	[ $rc = 0 ] && grep -q "restored governor $G0" "$T/r5b.log" \
		&& ok "5: --restore right after SIGKILL of a recording session" \
		|| bad "5: --restore exit $rc: $(cat "$T/r5b.log")"
	i=0
	# (10 s at most: a sanitizer build's recorder may still be in
	# libtracefs's start-up, which takes it about 3 s)
	while [ -n "$rpid" ] && ls /sys/kernel/tracing/instances | grep -q "^idlelab-record-$rpid-" &&
	      [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
	done
	[ -n "$rpid" ] && ! ls /sys/kernel/tracing/instances | grep -q "^idlelab-record-$rpid-" \
		&& ok "5: the recorder's instance $inst is gone ($((i * 50)) ms)" \
		|| bad "5: recorder instance '$inst' still there"
	echo "$G0" > $SYS/cpuidle/current_governor
	[ "$(cat $SYS/cpu*/cpuidle/state*/disable | tr -d '\n')" = "$D0" ] \
		|| bad "5: disable values changed"
	unset IDLELAB_RUN_DIR
fi

echo "$passes passed, $fails failed"
finish
