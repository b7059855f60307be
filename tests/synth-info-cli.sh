#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab synth / idlelab info from the command line: exit statuses,
# the info of a hand-computable synthetic trace, errors with offsets.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir

# --- help and usage errors --------------------------------------------------
expect 0 "synth --help" "$IDLELAB" synth --help
has "$T/out" "usage: idlelab synth"
expect 0 "info --help" "$IDLELAB" info --help
has "$T/out" "usage: idlelab info"
expect 2 "synth --machine skx" "$IDLELAB" synth --machine skx
has "$T/err" "-o FILE is required"
expect 2 "synth -o x.trace" "$IDLELAB" synth -o "$T/x.trace"
has "$T/err" "--machine or --states"
expect 2 "synth -o x.trace --machine skx --pattern wobble" "$IDLELAB" synth -o "$T/x.trace" --machine skx --pattern wobble
has "$T/err" "term 1 ('wobble')"
expect 2 "synth -o x.trace --machine no-such-machine" "$IDLELAB" synth -o "$T/x.trace" --machine no-such-machine
expect 2 "synth -o x.trace --machine skx --cpus 0" "$IDLELAB" synth -o "$T/x.trace" --machine skx --cpus 0
expect 2 "synth -o x.trace --machine skx --duration -1" "$IDLELAB" synth -o "$T/x.trace" --machine skx --duration -1
expect 2 "synth -o x.trace --machine skx extra" "$IDLELAB" synth -o "$T/x.trace" --machine skx extra
expect 2 "info" "$IDLELAB" info
expect 2 "info --format xml x.trace" "$IDLELAB" info --format xml "$T/x.trace"
[ -e "$T/x.trace" ] && bad "a failed synth left $T/x.trace"
expect 1 "synth -o no/such/dir/x.trace --machine skx" "$IDLELAB" synth -o "$T/no/such/dir/x.trace" --machine skx

# --- a trace worked out by hand ---------------------------------------------
# 100 Hz timers from t=0 on 2 CPUs for 1 s, no busy time: per CPU 100
# periods of exactly 10 ms (the 10-100ms decade), every one woken by the
# timer, each containing ticks (4 ms at HZ=250); sleep lengths exact.
expect 0 "synth -o a.trace --machine skx --cpus 2" "$IDLELAB" synth -o "$T/a.trace" --machine skx --cpus 2 \
	--duration 1 --pattern 'periodic:100+busy:0+aligned' --seed 5
has "$T/out" "200 idle periods on 2 CPUs"
expect 0 "info a.trace" "$IDLELAB" info "$T/a.trace"
has "$T/out" "periods:       200 read, 200 in metadata"
has "$T/out" "10-100ms            200  100.00%"
has "$T/out" "hrtimer             200  100.00%"
has "$T/out" "Sleep length:  100.00% exact"
has "$T/out" "100.00% got a tick"
has "$T/out" "C-state table: skx"
has "$T/out" "HZ:            250"
grep -q '^ *1 *100 *100.00 *10000.000$' "$T/out" ||
	bad "CPU 1 line: $(grep -A3 'Per CPU' "$T/out")"

expect 0 "info --format json a.trace" "$IDLELAB" info --format json "$T/a.trace"
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" - "$T/out" <<'EOF' || bad "info --format json content"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["stats"]
assert s["periods"] == 200, s["periods"]
assert s["idle_duration"]["10-100ms"] == 200
assert s["wake_causes"]["hrtimer"] == 200
assert [c["periods"] for c in s["cpus"]] == [100, 100]
assert s["idle_ns"] == 200 * 10000000
assert d["meta"]["hz"] == 250 and d["meta"]["nr_cpus"] == 2
assert d["meta"]["table"]["states"][0]["name"] == "POLL"
assert d["damage"] is None
# the states by index, unknown first: synth's periods have no recorded
# state (no kernel chose one)
se = s["states_entered"]
assert se[0] == {"state": -1, "name": "unknown", "entered": 200}, se[0]
assert [x["name"] for x in se[1:]] == \
    [st["name"] for st in d["meta"]["table"]["states"]], se
assert sum(x["entered"] for x in se) == 200
EOF
fi
# no timer at all: the three sleep-length shares still add up to 100 %
expect 0 "synth -o nt.trace --machine skx" "$IDLELAB" synth -o "$T/nt.trace" --machine skx \
	--pattern pingpong:1000 --duration 0.2 --cpus 2
expect 0 "info nt.trace" "$IDLELAB" info "$T/nt.trace"
has "$T/out" "Sleep length:  0.00% exact, 0.00% estimated, 100.00% no timer"

# --- a table file: disabled state and power data travel into the trace ----
cat >"$T/t.table" <<'EOF'
name "tiny"
driver "acpi_idle"
power_unit mW
state 0 "POLL" 0 0 flags=polling power=2000
state 1 "C1" 1 2 power=800 entry_energy=0.5
state 2 "C3" 100 300 disabled power=100 entry_energy=25
EOF
expect 0 "synth -o t.trace --states t.table" "$IDLELAB" synth -o "$T/t.trace" --states "$T/t.table" \
	--duration 0.1 --cpus 1
expect 0 "info t.trace" "$IDLELAB" info "$T/t.trace"
has "$T/out" "source: synth --states $T/t.table --pattern periodic"
has "$T/out" "C-state table: tiny"
has "$T/out" "driver acpi_idle, power mW / uJ"
has "$T/out" " 2 C3 100.000 300.000 0x00 yes 100 25"
has "$T/out" " 1 C1 1.000 2.000 0x00 no 800 0.5"

# --- reproducible ------------------------------------------------------------
for f in r1 r2; do
	expect 0 "synth -o $f.trace --machine skx --cpus 3" "$IDLELAB" synth -o "$T/$f.trace" --machine skx --cpus 3 \
		--duration 2 --pattern 'periodic+poisson:200+pingpong:30' --seed 9
done
cmp -s "$T/r1.trace" "$T/r2.trace" || bad "same seed, different traces"

# --- bad and damaged files ---------------------------------------------------
: >"$T/empty.trace"
expect 2 "info empty.trace" "$IDLELAB" info "$T/empty.trace"
has "$T/err" "empty.trace: offset 0:"
echo "this is not a trace at all, just some text" >"$T/text.trace"
expect 2 "info text.trace" "$IDLELAB" info "$T/text.trace"
has "$T/err" "text.trace: offset 0: not an idlelab trace"
expect 2 "info missing.trace" "$IDLELAB" info "$T/missing.trace"

cp "$T/a.trace" "$T/v3.trace"
printf '\003' | dd of="$T/v3.trace" bs=1 seek=8 conv=notrunc 2>/dev/null
expect 2 "info v3.trace" "$IDLELAB" info "$T/v3.trace"
has "$T/err" "v3.trace: offset 8: trace format version 3 is not supported (this idlelab reads versions 1 and 2)"

head -c 3000 "$T/a.trace" >"$T/hdr.trace"
expect 2 "info hdr.trace" "$IDLELAB" info "$T/hdr.trace"
has "$T/err" "hdr.trace: offset 3000: file truncated"

size=$(wc -c <"$T/a.trace")
head -c $((size - 100)) "$T/a.trace" >"$T/cut.trace"
expect 0 "info cut.trace" "$IDLELAB" info "$T/cut.trace"
has "$T/err" "warning:"
has "$T/out" "warning: damaged trace"
# the cut falls in CPU 1's block: CPU 0's 100 periods are still read
has "$T/out" "periods: 100 read, 200 in metadata"

# The kernel's counters against the trace, on a trace written from the
# format description (tests/trace-writer.py), not by idlelab: CPU 0 has
# four 1 ms periods in state 1 and its counters grew by 4 entries and
# 4000 us; CPU 1 has no period but the kernel counted 500 entries and
# 900 ms (its events never reached the trace): only that row is flagged.
cat >"$T/ctr.json" <<'JSON'
{"meta": {"kernel": "test", "governor": "menu", "hz": 250, "nr_cpus": 2},
 "states": [{"name": "POLL", "exit_latency_ns": 0, "target_residency_ns": 0,
             "flags": 1},
            {"name": "C1", "exit_latency_ns": 1000,
             "target_residency_ns": 1000}],
 "periods": [
  {"cpu": 0, "entry": 1000000000, "exit": 1001000000, "sleep": 5000000,
   "dtick": 3000000, "state": 1, "cause": 4},
  {"cpu": 0, "entry": 1002000000, "exit": 1003000000, "sleep": 5000000,
   "dtick": 3000000, "state": 1, "cause": 4},
  {"cpu": 0, "entry": 1004000000, "exit": 1005000000, "sleep": 5000000,
   "dtick": 3000000, "state": 1, "cause": 4},
  {"cpu": 0, "entry": 1006000000, "exit": 1007000000, "sleep": 5000000,
   "dtick": 3000000, "state": 1, "cause": 4}],
 "counters": [
  {"cpu": 0, "state": 0, "start": [7, 0, 0, 0, 0], "end": [7, 0, 0, 0, 0]},
  {"cpu": 0, "state": 1, "start": [100, 5000, 0, 0, 0],
   "end": [104, 9000, 0, 0, 0]},
  {"cpu": 1, "state": 0, "start": [0, 0, 0, 0, 0], "end": [0, 0, 0, 0, 0]},
  {"cpu": 1, "state": 1, "start": [0, 0, 0, 0, 0],
   "end": [500, 900000, 0, 0, 0]}]}
JSON
if python3 "$top_srcdir/tests/trace-writer.py" "$T/ctr.idl" "$T/ctr.json"; then
	expect 0 "info ctr.idl" "$IDLELAB" info "$T/ctr.idl"
	has "$T/out" "     0 C1                     4         4        4.0        4.0      0      0      0      0"
	has "$T/out" "     1 C1                     0       500        0.0      900.0      0      0      0      0  !"
	[ "$(grep -c '  !$' "$T/out")" = 1 ] || bad "one flagged row"
	has "$T/err" "CPU 1 state C1: the trace has 0 entries (0.0 ms), the kernel counted 500 (900.0 ms): events were lost or never reached the trace buffer"
	expect 0 "info ctr.idl --format json" "$IDLELAB" info "$T/ctr.idl" --format json
	python3 -c '
import json, sys
c = json.load(sys.stdin)["counters"]
assert [x["flagged"] for x in c] == [False, False, False, True], c
assert c[1]["kernel"]["usage"] == 4 and c[1]["trace"]["time_us"] == 4000
assert c[3]["kernel"]["time_us"] == 900000' <"$T/out" ||
		bad "info --format json counters"
else
	bad "trace-writer.py"
fi

[ "$fails" = 0 ] || exit 1
echo "synth-info-cli: all passed"
