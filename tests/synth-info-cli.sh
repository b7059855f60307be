#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab synth / idlelab info from the command line: exit statuses,
# the info of a hand-computable synthetic trace, errors with offsets.
set -u

: "${IDLELAB:=./idlelab}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect STATUS CMD...: run CMD, compare its exit status
expect() {
	want=$1
	shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "exit $got (want $want): $*: $(cat "$tmp/err")"
}

has() {	# has FILE TEXT, comparing with runs of spaces squeezed
	tr -s ' ' <"$1" >"$tmp/squeezed"
	want=$(printf '%s' "$2" | tr -s ' ')
	grep -F -q -e "$want" "$tmp/squeezed" ||
		fail "$1 lacks '$want': $(head -c 600 "$1")"
}

# --- help and usage errors --------------------------------------------------
expect 0 "$IDLELAB" synth --help
has "$tmp/out" "usage: idlelab synth"
expect 0 "$IDLELAB" info --help
has "$tmp/out" "usage: idlelab info"
expect 2 "$IDLELAB" synth --machine skx
has "$tmp/err" "-o FILE is required"
expect 2 "$IDLELAB" synth -o "$tmp/x.trace"
has "$tmp/err" "--machine or --states"
expect 2 "$IDLELAB" synth -o "$tmp/x.trace" --machine skx --pattern wobble
has "$tmp/err" "term 1 ('wobble')"
expect 2 "$IDLELAB" synth -o "$tmp/x.trace" --machine no-such-machine
expect 2 "$IDLELAB" synth -o "$tmp/x.trace" --machine skx --cpus 0
expect 2 "$IDLELAB" synth -o "$tmp/x.trace" --machine skx --duration -1
expect 2 "$IDLELAB" synth -o "$tmp/x.trace" --machine skx extra
expect 2 "$IDLELAB" info
expect 2 "$IDLELAB" info --format xml "$tmp/x.trace"
[ -e "$tmp/x.trace" ] && fail "a failed synth left $tmp/x.trace"
expect 1 "$IDLELAB" synth -o "$tmp/no/such/dir/x.trace" --machine skx

# --- a trace worked out by hand ---------------------------------------------
# 100 Hz timers from t=0 on 2 CPUs for 1 s, no busy time: per CPU 100
# periods of exactly 10 ms (the 10-100ms decade), every one woken by the
# timer, each containing ticks (4 ms at HZ=250); sleep lengths exact.
expect 0 "$IDLELAB" synth -o "$tmp/a.trace" --machine skx --cpus 2 \
	--duration 1 --pattern 'periodic:100+busy:0+aligned' --seed 5
has "$tmp/out" "200 idle periods on 2 CPUs"
expect 0 "$IDLELAB" info "$tmp/a.trace"
has "$tmp/out" "periods:       200 read, 200 in metadata"
has "$tmp/out" "10-100ms            200  100.00%"
has "$tmp/out" "hrtimer             200  100.00%"
has "$tmp/out" "Sleep length:  100.00% exact"
has "$tmp/out" "100.00% got a tick"
has "$tmp/out" "C-state table: skx"
has "$tmp/out" "HZ:            250"
grep -q '^ *1 *100 *100.00 *10000.000$' "$tmp/out" ||
	fail "CPU 1 line: $(grep -A3 'Per CPU' "$tmp/out")"

expect 0 "$IDLELAB" info --format json "$tmp/a.trace"
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" - "$tmp/out" <<'EOF' || fail "info --format json content"
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
expect 0 "$IDLELAB" synth -o "$tmp/nt.trace" --machine skx \
	--pattern pingpong:1000 --duration 0.2 --cpus 2
expect 0 "$IDLELAB" info "$tmp/nt.trace"
has "$tmp/out" "Sleep length:  0.00% exact, 0.00% estimated, 100.00% no timer"

# --- a table file: disabled state and power data travel into the trace ----
cat >"$tmp/t.table" <<'EOF'
name "tiny"
driver "acpi_idle"
power_unit mW
state 0 "POLL" 0 0 flags=polling power=2000
state 1 "C1" 1 2 power=800 entry_energy=0.5
state 2 "C3" 100 300 disabled power=100 entry_energy=25
EOF
expect 0 "$IDLELAB" synth -o "$tmp/t.trace" --states "$tmp/t.table" \
	--duration 0.1 --cpus 1
expect 0 "$IDLELAB" info "$tmp/t.trace"
has "$tmp/out" "source: synth --states $tmp/t.table --pattern periodic"
has "$tmp/out" "C-state table: tiny"
has "$tmp/out" "driver acpi_idle, power mW / uJ"
has "$tmp/out" " 2 C3 100.000 300.000 0x00 yes 100 25"
has "$tmp/out" " 1 C1 1.000 2.000 0x00 no 800 0.5"

# --- reproducible ------------------------------------------------------------
for f in r1 r2; do
	expect 0 "$IDLELAB" synth -o "$tmp/$f.trace" --machine skx --cpus 3 \
		--duration 2 --pattern 'periodic+poisson:200+pingpong:30' --seed 9
done
cmp -s "$tmp/r1.trace" "$tmp/r2.trace" || fail "same seed, different traces"

# --- bad and damaged files ---------------------------------------------------
: >"$tmp/empty.trace"
expect 2 "$IDLELAB" info "$tmp/empty.trace"
has "$tmp/err" "empty.trace: offset 0:"
echo "this is not a trace at all, just some text" >"$tmp/text.trace"
expect 2 "$IDLELAB" info "$tmp/text.trace"
has "$tmp/err" "text.trace: offset 0: not an idlelab trace"
expect 2 "$IDLELAB" info "$tmp/missing.trace"

cp "$tmp/a.trace" "$tmp/v3.trace"
printf '\003' | dd of="$tmp/v3.trace" bs=1 seek=8 conv=notrunc 2>/dev/null
expect 2 "$IDLELAB" info "$tmp/v3.trace"
has "$tmp/err" "v3.trace: offset 8: trace format version 3 is not supported (this idlelab reads versions 1 and 2)"

head -c 3000 "$tmp/a.trace" >"$tmp/hdr.trace"
expect 2 "$IDLELAB" info "$tmp/hdr.trace"
has "$tmp/err" "hdr.trace: offset 3000: file truncated"

size=$(wc -c <"$tmp/a.trace")
head -c $((size - 100)) "$tmp/a.trace" >"$tmp/cut.trace"
expect 0 "$IDLELAB" info "$tmp/cut.trace"
has "$tmp/err" "warning:"
has "$tmp/out" "warning: damaged trace"
# the cut falls in CPU 1's block: CPU 0's 100 periods are still read
has "$tmp/out" "periods: 100 read, 200 in metadata"

# The kernel's counters against the trace, on a trace written from the
# format description (tests/trace-writer.py), not by idlelab: CPU 0 has
# four 1 ms periods in state 1 and its counters grew by 4 entries and
# 4000 us; CPU 1 has no period but the kernel counted 500 entries and
# 900 ms (its events never reached the trace): only that row is flagged.
cat >"$tmp/ctr.json" <<'JSON'
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
if python3 "$top_srcdir/tests/trace-writer.py" "$tmp/ctr.idl" "$tmp/ctr.json"; then
	expect 0 "$IDLELAB" info "$tmp/ctr.idl"
	has "$tmp/out" "     0 C1                     4         4        4.0        4.0      0      0      0      0"
	has "$tmp/out" "     1 C1                     0       500        0.0      900.0      0      0      0      0  !"
	[ "$(grep -c '  !$' "$tmp/out")" = 1 ] || { echo "FAIL: one flagged row"; fails=$((fails + 1)); }
	has "$tmp/err" "CPU 1 state C1: the trace has 0 entries (0.0 ms), the kernel counted 500 (900.0 ms): events were lost or never reached the trace buffer"
	expect 0 "$IDLELAB" info "$tmp/ctr.idl" --format json
	python3 -c '
import json, sys
c = json.load(sys.stdin)["counters"]
assert [x["flagged"] for x in c] == [False, False, False, True], c
assert c[1]["kernel"]["usage"] == 4 and c[1]["trace"]["time_us"] == 4000
assert c[3]["kernel"]["time_us"] == 900000' <"$tmp/out" ||
		{ echo "FAIL: info --format json counters"; fails=$((fails + 1)); }
else
	echo "FAIL: trace-writer.py"; fails=$((fails + 1))
fi

[ "$fails" = 0 ] || exit 1
echo "synth-info-cli: all passed"
