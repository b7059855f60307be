#!/bin/sh
# idlelab itself on a real multi-state host (doc/lab.md, "idlelab in the
# guest"): cross-built for arm64 (lab/cross.sh) and run as root in the lab
# guest, Debian's 6.12 with the four states of lab/tables/arm4.table on
# two vCPUs (lab/guest/live-lab.sh): `states` must equal sysfs; `record`
# under each governor the kernel offers must agree with the kernel's
# choices on at least 99.5% of the entries (replayed here with the
# kernel's own governor files); `live` over menu and ladder must finish,
# put the governor back, and give per-state residencies that differ
# between the governors; SIGKILLs of live and record (tests/live-soak.sh
# in the guest) must leave the guest as found.  SKIP like
# tests/lab-fidelity.sh when the lab's packages are missing.
# LAB_LIVE_KILLS sets the number of kills (default 6); LAB_LIVE_KEEP=DIR
# keeps what the guest wrote there.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
LAB=$top_srcdir/lab
KILLS=${LAB_LIVE_KILLS:-6}
lab_prologue autoreconf
# a fresh cross build of this tree, its own cache when the lab's is
# shared (the guest must run the code under test)
bash "$LAB/cross.sh" -o "$T/arm64" >"$T/cross.log" 2>&1 ||
	{ echo "FAIL: lab/cross.sh"; tail -5 "$T/cross.log"; exit 1; }
echo "cross build: $(tail -1 "$T/cross.log")"
mkdir -p "$T/cache"
ln -s "$T/arm64" "$T/cache/arm64"
for f in "${IDLELAB_LAB_CACHE:-/var/cache/idlelab/lab}"/*; do
	[ "$(basename "$f")" = arm64 ] || ln -s "$f" "$T/cache/"
done

echo "guest: Debian 6.12 arm64, arm4 table, 2 vCPUs:"
# 6 s of recording: the CPU the workload leaves nearly idle gets past
# its warm-up of 64 entries (about 15 entries a second), so what is
# scored there follows the copy that matched the kernel's history
IDLELAB_LAB_CACHE=$T/cache bash "$LAB/lab.sh" run \
	-x "$LAB/guest/live-lab.sh" -o "$T/out" -E RECORD_SECS=6 \
	-E BENCH=timer,pingpong:gap=500,cyclictest:interval=2000 -E RUNS=1 -E WARMUP=1 \
	-E DURATION=1 -E KILLS="$KILLS" -E RECORD_KILLS=2 \
	>"$T/run.log" 2>&1 || bad "the guest's script: $(tail -1 "$T/run.log")"
sed 's/^/  /' "$T/out/summary" 2>/dev/null
grep -q . "$T/out/summary" 2>/dev/null ||
	{ tail -20 "$T/run.log" "$T/out/console.log" 2>/dev/null; exit 1; }

# the recordings against the kernel's choices.  A recording without the
# probed inputs can fall just short on a loaded host (issue 29: 99.49%
# miss class on 1584 entries once, in CI's sanitizer run): the
# recordings alone are then made again once, and those must pass.
if bash "$LAB/lab.sh" replay "$T/out" >"$T/replay.log" 2>&1; then
	sed 's/^/  /' "$T/replay.log"
else
	sed 's/^/  /' "$T/replay.log"
	echo "  below 99.5%: the recordings made again once"
	IDLELAB_LAB_CACHE=$T/cache bash "$LAB/lab.sh" run \
		-x "$LAB/guest/live-lab.sh" -o "$T/again" -E RECORD_SECS=6 \
		-E RUNS=0 -E KILLS=0 >"$T/run2.log" 2>&1 ||
		bad "the guest's script, again: $(tail -1 "$T/run2.log")"
	bash "$LAB/lab.sh" replay "$T/again" >"$T/replay.log" 2>&1 ||
		bad "record: agreement below 99.5%, twice"
	sed 's/^/  /' "$T/replay.log"
fi
[ "$(grep -c '^rec-' "$T/replay.log")" -ge 2 ] ||
	bad "record: fewer than two recordings replayed"

# the live session's results, as compare reads them; the governors must
# differ in where their idle time went
"$IDLELAB" compare "$T/out/live/results.json" >"$T/compare.txt" 2>&1 ||
	bad "compare of the guest's live results: exit $?"
# (the script says what fails)
python3 - "$T/out/live/results.json" <<'PY' || fails=$((fails + 1))
import json, sys
r = json.load(open(sys.argv[1]))
idle = r["idle"]
if not r["live"].get("complete"):
    print("FAIL: live results not complete"); sys.exit(1)
if len(idle) < 2:
    print("FAIL: live: fewer than two governors"); sys.exit(1)
names = [s["name"] for s in r["machine"]["states"]]
print("  residency %:", " ".join("%12s" % n for n in names))
rows = []
for g, v in sorted(idle.items()):
    row = [v["residency_pct"].get(n, 0.0) for n in names]
    rows.append(row)
    print("  %-12s" % g, " ".join("%12.2f" % x for x in row))
if max(abs(a - b) for a, b in zip(rows[0], rows[1])) < 1.0:
    print("FAIL: live: the governors' per-state residencies do not differ")
    sys.exit(1)
PY
[ -z "${LAB_LIVE_KEEP:-}" ] || cp -r "$T/out" "$LAB_LIVE_KEEP"
finish
