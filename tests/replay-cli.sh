#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab replay from the command line: usage and errors, -j determinism,
# what-if flags, explain, atomic output.  Expected values are fixed by the
# definitions in doc/scoring.md (a disabled state is never entered, ...),
# not by running the code under test twice the same way.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir

# CSV value of METRIC KEY for GOVERNOR (totals)
csv() {
	awk -F, -v g="$2" -v m="$3" -v k="$4" \
		'$2 == "all" && $3 == g && $4 == m && $5 == k { print $6 }' "$1"
}

expect 0 "--help exits 0" "$IDLELAB" replay --help
grep -q '^usage: idlelab replay' "$T/out" || bad "--help prints usage on stdout"
expect 2 "unknown option exits 2" "$IDLELAB" replay --no-such-option
expect 2 "bad --format exits 2" "$IDLELAB" replay --format xml --synthetic 10
expect 2 "--per-cpu with text output exits 2" "$IDLELAB" replay --per-cpu --synthetic 10
expect 2 "--synthetic with a TRACE exits 2" "$IDLELAB" replay --synthetic 10 "$top_srcdir/traces/data/default.idl"
expect 2 "unknown governor exits 2" "$IDLELAB" replay -g nosuch --synthetic 10
expect 2 "unknown machine exits 2" "$IDLELAB" replay --machine nosuch --synthetic 10
expect 2 "--disable of a missing state exits 2" \
	"$IDLELAB" replay --synthetic 10 --disable 9
grep -q 'disable 9' "$T/err" || bad "--disable error names the state"
expect 2 "--disable of an unknown name exits 2" \
	"$IDLELAB" replay --synthetic 10 --disable C99
expect 2 "bad --explain exits 2" "$IDLELAB" replay --synthetic 10 --explain x
expect 2 "missing trace file exits with status 2" \
	"$IDLELAB" replay "$T/does-not-exist.idl"

# No TRACE: the bundled default trace, or a clear message if absent.
if [ -f "$top_srcdir/traces/data/default.idl" ]; then
	expect 0 "default trace replays" "$IDLELAB" replay -g oracle
else
	expect 1 "no default trace: clear failure" "$IDLELAB" replay -g oracle
	grep -q 'default trace' "$T/err" || bad "message names the default trace"
fi

# -j determinism: the same JSON for -j1 and -j4 (except the timestamp).
for j in 1 4; do
	"$IDLELAB" replay --synthetic 20000:4 --format json --per-cpu -j $j \
		-o "$T/j$j.json" || bad "-j$j run"
	grep -v '"created"' "$T/j$j.json" >"$T/j$j.cmp"
done
if cmp -s "$T/j1.cmp" "$T/j4.cmp"; then ok "-j1 and -j4 give the same JSON"
else bad "-j1 and -j4 differ"; fi
ls "$T" | grep -q 'tmp' && bad "-o left a temporary file"

# JSON: results schema, kind replay, one config per governor.
if [ -n "${PYTHON3:-}" ]; then
	if "$PYTHON3" - "$T/j1.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "idlelab-results" and d["version"] == 1
assert d["kind"] == "replay"
assert d["configs"] == ["menu", "teo", "ladder", "haltpoll", "oracle"]
t = d["replay"]["traces"][0]
assert t["workload"]["recorded_periods"] == 4 * 20000
assert len(t["cpus"]) == 4
o = t["governors"]["oracle"]
# the oracle agrees with itself and has no regret
assert o["vs_oracle"]["same"] == o["selects"]
assert abs(o["energy_regret_pct"]) < 1e-9
for b in d["benchmarks"]:
    assert set(b["values"]) == set(d["configs"])
EOF
	then ok "JSON schema"; else bad "JSON schema"; fi
fi

# What-ifs on the synthetic skx trace (POLL, C1, C1E, C6).
"$IDLELAB" replay --synthetic 20000 --disable C6 --format csv -o "$T/d.csv" \
	|| bad "--disable run"
for g in menu teo ladder oracle; do
	[ "$(csv "$T/d.csv" "$g" entries C6)" = 0 ] || bad "$g entered disabled C6"
done
ok "--disable C6: no governor enters C6"
"$IDLELAB" replay --synthetic 20000 --disable 3 --format csv -o "$T/d3.csv"
cmp -s "$T/d.csv" "$T/d3.csv" && ok "--disable by index = by name" \
	|| bad "--disable 3 differs from --disable C6"
# C6 exits in 133 us: with a 50 us limit it is not allowed
"$IDLELAB" replay --synthetic 20000 --latency-req 50000 -g menu,teo,oracle \
	--format csv -o "$T/l.csv" || bad "--latency-req run"
for g in menu teo oracle; do
	[ "$(csv "$T/l.csv" "$g" entries C6)" = 0 ] || bad "$g entered C6"
	[ "$(csv "$T/l.csv" "$g" latency_req_violations '')" = 0 ] ||
		bad "$g violated latency_req"
done
ok "--latency-req 50000 keeps C6 out"
# HZ 1000: 1 ms ticks; 100 ms of idle time with the tick kept must split
"$IDLELAB" replay --synthetic 20000 --hz 1000 -g menu --format csv \
	-o "$T/h.csv" || bad "--hz run"
grep -q '^synthetic:20000,all,menu,selects,' "$T/h.csv" && ok "--hz runs" \
	|| bad "--hz output"
# governor tunables: two instances of teo side by side
expect 0 "tunables: teo and teo:pulse=512" \
	"$IDLELAB" replay --synthetic 1000 -g teo,teo:pulse=512 --format csv
grep -q ',teo:pulse=512,selects,' "$T/out" || bad "teo:pulse=512 column"

# --explain: lines for periods 0..2 of CPU 0 only
"$IDLELAB" replay --synthetic 100:2 -g menu,oracle --explain 0:0-2 \
	>"$T/ex" || bad "--explain run"
n=$(grep -c '^cpu 0 period' "$T/ex")
[ "$n" = 3 ] && ok "--explain 0:0-2 explains 3 periods" || bad "explained $n periods"
grep -q '^cpu 1 ' "$T/ex" && bad "--explain printed another CPU"
grep -q '^  oracle .*oracle .*: same' "$T/ex" && ok "--explain shows the oracle" \
	|| bad "--explain oracle line"
# a window past the trace's 100 periods: nothing to explain, said
"$IDLELAB" replay --synthetic 100:2 -g menu --explain 0:200-300 \
	>"$T/ex" 2>"$T/exerr" || bad "--explain past the end run"
grep -q 'warning: --explain: .*no period of CPU 0 in the window' \
	"$T/exerr" && ! grep -q '^cpu ' "$T/ex" &&
	ok "--explain past the end warns" || bad "--explain past the end"

# The governor live at capture and agreement with the kernel, on a
# fixture under haltpoll with guest_halt_poll_ns=0 (3 entries: 1, 1, 0).
# haltpoll never polls without a window: with the capture's tunables it
# chooses 1, 1, 1: entries 0 and 1 agree, entry 2 (at +0.4 ms) does not.
# With guest_halt_poll_ns=200000 it would grow a window after the first
# 100 us halt and poll at entry 1: that column is not the live one.
FXI=$top_srcdir/tests/fixtures/import
"$IDLELAB" import -q "$FXI/haltpoll-live.txt" -o "$T/hp.idl" \
	--machine vm-haltpoll --hz 250 \
	--governor haltpoll:guest_halt_poll_ns=0 || bad "import --governor"
"$IDLELAB" replay -g haltpoll,haltpoll:guest_halt_poll_ns=200000 \
	--disagreements 5 "$T/hp.idl" >"$T/hp.txt" 2>&1 || bad "replay live"
grep -q '^  live governor haltpoll: tunables guest_halt_poll_ns=0,.*; the capture.s tunables in haltpoll$' \
	"$T/hp.txt" && ok "header: the capture's tunables" ||
	bad "header: $(grep 'live governor' "$T/hp.txt")"
grep -q '^disagreement 1: cpu 0 entry 2 (warm-up) at +0.000400000 s: kernel 0 POLL, haltpoll 1 haltpoll idle (stop tick)$' \
	"$T/hp.txt" && ok "--disagreements names entry 2" ||
	bad "--disagreements: $(grep -A3 '^disagreement' "$T/hp.txt")"
[ "$(grep -c '^disagreement ' "$T/hp.txt")" = 1 ] || bad "one disagreement"
grep -q 'inputs: sleep_length 9223372036854775807 ns (estimated).*, no latency limit$' \
	"$T/hp.txt" || bad "--disagreements: inputs line"
"$IDLELAB" replay -g haltpoll,haltpoll:guest_halt_poll_ns=200000 \
	--format json -o "$T/hp.json" "$T/hp.idl" || bad "replay live json"
if python3 - "$T/hp.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]
a = t["governors"]["haltpoll"]
b = t["governors"]["haltpoll:guest_halt_poll_ns=200000"]
assert t["live_governor"] == "haltpoll"
assert a["live_at_capture"] and a["capture_tunables"]
assert a["tunables"].startswith("guest_halt_poll_ns=0,"), a["tunables"]
# the first entry is never scored: the one before it is unknown
assert (a["agreement_entries"], a["agreement_same"]) == (2, 1)
assert a["agreement_warmup"] == 1
assert abs(a["agreement_pct"] - 50) < 1e-6
assert not b["live_at_capture"] and b["agreement_entries"] == 0
PY
then ok "JSON: live column, tunables, 1 of 2 entries"
else bad "JSON: live column"; fi

# Tables with power but no entry energies (ARM EAS idle costs): the entry
# cost that makes each target residency the break-even time, by hand --
# juno: P 15, 0, 0 (relative), T 1, 2000, 2500 us: E = 0, 15 * 2000 us =
# 0.03 rel*s, 0.03 + 0 * 2500 us; tc2-a15: P 70, 25, T 2000 us: 0.09.
# Then no governor beats the oracle (regret >= 0).
for m in juno:0,0.03,0.03 tc2-a15:0,0.09; do
	"$IDLELAB" replay --synthetic 3000 --machine "${m%%:*}" \
		--format json -o "$T/e.json" || bad "replay ${m%%:*}"
	python3 - "$T/e.json" "${m#*:}" <<'PY' &&
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]
want = [float(x) for x in sys.argv[2].split(",")]
got = [s["model_entry_cost"] for s in t["states"]]
assert t["energy_model"] == "table", t["energy_model"]
assert all(abs(g - w) < 1e-12 for g, w in zip(got, want)), got
assert len(got) == len(want), got
for name, g in t["governors"].items():
    assert g["energy_regret_pct"] >= -1e-9, (name, g["energy_regret_pct"])
PY
	ok "${m%%:*}: break-even entry costs, no negative regret" ||
	bad "${m%%:*}: entry costs or regret"
done

# A real trace written by `idlelab synth`, if available: -j determinism.
if "$IDLELAB" synth --help >/dev/null 2>&1; then
	if "$IDLELAB" synth -o "$T/s.idl" --machine skl --cpus 3 \
		--duration 1 >/dev/null 2>&1; then
		"$IDLELAB" replay "$T/s.idl" "$T/s.idl" --format json -j1 \
			| grep -v '"created"' >"$T/s1"
		"$IDLELAB" replay "$T/s.idl" "$T/s.idl" --format json -j3 \
			| grep -v '"created"' >"$T/s3"
		cmp -s "$T/s1" "$T/s3" && ok "synth trace: -j1 = -j3" \
			|| bad "synth trace: -j1 != -j3"
	fi
fi

# --bare RUNS: the governors' loop alone, make bench's reference.  On a
# trace where replay merges nothing it makes the same selects as replay;
# where replay merges, its periods less the merged ones are replay's.
def=$top_srcdir/traces/data/default.idl
expect 2 "--bare 0 exits 2" "$IDLELAB" replay --bare 0 --synthetic 10
expect 2 "--bare with --synthetic exits 2" \
	"$IDLELAB" replay --bare 1 --synthetic 10
expect 2 "--bare with --format csv exits 2" \
	"$IDLELAB" replay --bare 1 --format csv "$def"
if "$IDLELAB" synth -o "$T/b.idl" --machine skx --cpus 2 --duration 2 \
	--pattern 'poisson:2000+periodic' >"$T/b.syn" 2>&1; then
	n=$(sed -n 's/.*: \([0-9]*\) idle periods.*/\1/p' "$T/b.syn")
	"$IDLELAB" replay --bare 2 -g menu,teo,ladder "$T/b.idl" \
		>"$T/bare" 2>&1 || bad "--bare on a synth trace"
	"$IDLELAB" replay --format csv -g menu,teo,ladder "$T/b.idl" \
		>"$T/b.csv"
	grep -q merges "$T/bare" && bad "--bare: synth trace has merges"
	for g in menu teo ladder; do
		set -- $(awk -v g="$g" '$1 == g { print $2, $3, $5 }' \
			"$T/bare")
		sel=$(csv "$T/b.csv" "$g" selects "")
		if [ "${1:-}" = "$n" ] && [ "${2:-}" = "$sel" ] &&
		   awk -v r="${3:-0}" 'BEGIN { exit !(r > 0) }'; then
			ok "--bare $g: $n periods, $sel selects as replay"
		else
			bad "--bare $g: '$*' against $n periods, $sel selects"
		fi
	done
fi
"$IDLELAB" replay --bare 1 -g menu "$def" >"$T/bare" 2>&1
"$IDLELAB" replay --format csv -g menu "$def" >"$T/d.csv"
m=$(sed -n 's/^# \([0-9]*\) periods that replay merges.*/\1/p' "$T/bare")
p=$(awk '$1 == "menu" { print $2 }' "$T/bare")
w=$(csv "$T/d.csv" workload idle_periods "")
r=$(csv "$T/d.csv" workload recorded_periods "")
if [ -n "$m" ] && [ "$p" = "$r" ] && [ $((p - m)) = "$w" ]; then
	ok "--bare: $p periods, $m merged by replay into $w"
else
	bad "--bare on $def: periods '$p', merged '$m', replay $r -> $w"
fi
head -c 100000 "$def" >"$T/cut.idl"
expect 0 "--bare on a truncated trace exits 0" \
	"$IDLELAB" replay --bare 1 -g menu "$T/cut.idl"
if [ "$(grep -c 'truncated block' "$T/err")" = 1 ]; then
	ok "--bare: the damage is told once"
else
	bad "--bare: damage told $(grep -c 'truncated block' "$T/err") times"
fi

# A trace cut inside its first block has no period: every rate is
# undefined (null, "-"), never 0
head -c 5000 "$def" >"$T/cut0.idl"
"$IDLELAB" replay -g teo --format json -o "$T/cut0.json" "$T/cut0.idl" \
	2>/dev/null
python3 - "$T/cut0.json" <<'PY' && ok "no period: rates null" ||
import json, sys
g = json.load(open(sys.argv[1]))["replay"]["traces"][0]["governors"]["teo"]
assert g["selects"] == 0, g["selects"]
for k in ("above_pct", "below_pct"):
    assert g[k] is None, (k, g[k])
assert all(v is None for v in g["residency_pct"].values()), g["residency_pct"]
assert g["vs_oracle"]["same_pct"] is None
for k in ("mean", "p50", "p99", "max"):
    assert g["latency_%s_ns" % k]["all"] is None, (k, g["latency_%s_ns" % k])
PY
	bad "no period: rates not null"
"$IDLELAB" replay -g teo "$T/cut0.idl" 2>/dev/null |
	grep -q '^  above (too deep) %  *-$' && ok "no period: - in the card" ||
	bad "no period: card"

finish
