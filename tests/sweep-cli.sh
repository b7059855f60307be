#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab sweep / merge / compare on a sweep (doc/sweep.md): a grid over
# the bundled traces, sharded and merged (also by GNU parallel when it is
# installed), the Pareto front, and the inputs that must be refused.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
D=$top_srcdir/traces/data
TR="$D/pipe-menu.idl $D/timer-menu.idl $D/pipe-haltpoll.idl"
# 6 + 4 + 2 = 12 configurations x 3 traces x 2 tables = 72 cells
G1='menu:decay=4|8|16,intervals=8|16'
G2='teo:pulse=256..1024/256'
sweep() { "$IDLELAB" sweep "$@"; }
same() {	# A B: equal but for the creation time
	sed 's/"created": "[^"]*"//' "$1" >"$T/a.cmp"
	sed 's/"created": "[^"]*"//' "$2" >"$T/b.cmp"
	cmp -s "$T/a.cmp" "$T/b.cmp"
}

sweep -g "$G1" -g "$G2" -g ladder -g haltpoll --machine skx \
	-o "$T/all.json" $TR 2>"$T/err" || bad "sweep: $(cat "$T/err")"
python3 - "$T/all.json" <<'PY' && ok "the grid: 72 cells in canonical order" || bad "the grid"
import json, sys
d = json.load(open(sys.argv[1]))
s, cells = d["sweep"], d["cells"]
assert d["kind"] == "sweep" and s["cells_total"] == 72 == len(cells)
assert s["tables"] == ["own", "skx"]
assert s["configs"][:3] == ["haltpoll", "ladder", "menu:intervals=8,decay=4"]
assert s["configs"][-4:] == ["teo:pulse=256", "teo:pulse=512",
                             "teo:pulse=768", "teo:pulse=1024"]
assert [c["index"] for c in cells] == list(range(72))
c = cells[13]          # trace 0, table skx, config 1
assert (c["trace"], c["table"], c["config"]) == \
    (s["traces"][0], "skx", "ladder"), c
assert c["table_name"] == "skx" and not c["own_table"]
# trace 0 is pipe-haltpoll, captured with guest_halt_poll_ns=0: its
# haltpoll cell on its own table ran with that
assert cells[0]["own_table"] and not cells[0]["defaults"]
assert cells[0]["config"] == "haltpoll"
assert s["traces"][0].endswith("pipe-haltpoll.idl")
assert cells[12]["config"] == "haltpoll" and cells[12]["defaults"]  # skx
assert [x["defaults"] for x in cells[:12]].count(True) == 3  # ladder menu(8,8) teo(1024)
for x in cells:
    assert x["results"]["selects"] > 0, x
PY
# one plain replay gives the same numbers as the sweep's cell
"$IDLELAB" replay -g 'menu:decay=4,intervals=16' --machine skx --format json \
	-o "$T/one.json" "$D/pipe-menu.idl" || bad "replay"
python3 - "$T/all.json" "$T/one.json" <<'PY' && ok "a cell = replay of it" || bad "a cell differs from replay"
import json, sys
cells = json.load(open(sys.argv[1]))["cells"]
r = json.load(open(sys.argv[2]))["replay"]["traces"][0]["governors"]
g = list(r.values())[0]
c = [x for x in cells if x["config"] == "menu:intervals=16,decay=4" and
     x["table"] == "skx" and x["trace"].endswith("pipe-menu.idl")][0]
for k in ("selects", "entries", "energy", "latency_mean_ns", "above_pct"):
    assert c["results"][k] == g[k], k
PY

# hackbench-haltpoll was captured under haltpoll with guest_halt_poll_ns=0:
# its haltpoll cell ran with that, not the defaults; a trace cut short
# is replayed up to the damage, which each cell carries, told once
sweep -g haltpoll -g menu -o "$T/hp.json" "$D/hackbench-haltpoll.idl" \
	|| bad "sweep hackbench-haltpoll"
head -c 100000 "$D/pipe-menu.idl" >"$T/cut.idl"
sweep -g menu -g 'teo:pulse=512|1024' -o "$T/cut.json" "$T/cut.idl" \
	2>"$T/err" || bad "sweep of a cut trace"
[ "$(grep -c 'warning: .*cut.idl: offset .*periods lost' "$T/err")" = 1 ] ||
	bad "damage warnings: $(cat "$T/err")"
python3 - "$T/hp.json" "$T/cut.json" <<'PY' &&
import json, sys
hp = {c["config"]: c for c in json.load(open(sys.argv[1]))["cells"]}
assert not hp["haltpoll"]["defaults"] and hp["menu"]["defaults"]
assert "damage" not in hp["menu"]
cells = json.load(open(sys.argv[2]))["cells"]
assert len(cells) == 3
for c in cells:
    assert "truncated" in c["damage"], c.get("damage")
PY
	ok "capture tunables are no defaults; damage in every cell" ||
	bad "defaults or damage of cells"

# three shards, in another order of the arguments, merged = unsharded
for i in 1 2 3; do
	sweep --shard $i/3 -g haltpoll -g ladder -g "$G2" -g "$G1" --machine skx \
		-o "$T/p$i.json" $(echo $TR | tr ' ' '\n' | sort -r) ||
		bad "shard $i"
done
"$IDLELAB" merge -o "$T/merged.json" "$T/p3.json" "$T/p1.json" "$T/p2.json" ||
	bad "merge"
same "$T/all.json" "$T/merged.json" && ok "3 shards merged = unsharded" ||
	bad "3 shards merged differ from the unsharded sweep"
python3 - "$T/p1.json" <<'PY' && ok "shard 1/3: cells 0, 3, 6, ..." || bad "shard 1/3"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["sweep"]["shard"] == {"index": 1, "count": 3}
assert [c["index"] for c in d["cells"]] == list(range(0, 72, 3))
PY
if command -v parallel >/dev/null 2>&1; then
	parallel --will-cite "$IDLELAB" sweep --shard {}/4 -o "$T/q{}.json" \
		-g "'$G1'" -g "'$G2'" -g ladder -g haltpoll --machine skx $TR \
		::: 1 2 3 4 2>"$T/err" || bad "parallel: $(cat "$T/err")"
	"$IDLELAB" merge -o "$T/par.json" "$T"/q*.json &&
		same "$T/all.json" "$T/par.json" &&
		ok "GNU parallel, 4 shards, merged = unsharded" ||
		bad "GNU parallel shards"
else
	echo "skip - GNU parallel not installed"
fi

# the Pareto front
"$IDLELAB" compare "$T/all.json" >"$T/cmp" 2>"$T/err" || bad "compare: $(cat "$T/err")"
grep -q "^Pareto front: [0-9]* of 12 configurations" "$T/cmp" &&
	grep -q "^Defaults:" "$T/cmp" &&
	grep -q "^  ladder  *\(on the front\|beaten by \)" "$T/cmp" &&
	grep -q "^  menu:intervals=8,decay=8  *\(on the front\|beaten by \)" "$T/cmp" &&
	ok "compare: front and defaults" || bad "compare: $(head -30 "$T/cmp")"
"$IDLELAB" compare --format csv "$T/all.json" >"$T/cmp.csv" || bad "compare csv"
python3 - "$T/cmp.csv" <<'PY' && ok "front: no front point is beaten" || bad "front property"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
groups = {}
for r in rows:
    groups.setdefault((r["trace"], r["table"]), []).append(r)
assert len(groups) == 7, groups.keys()          # all + 3 traces x 2 tables
for g, rs in groups.items():
    assert len(rs) == 12
    keys = [k for k in rs[0] if k not in ("trace", "table", "config", "defaults", "front", "beaten_by")]
    pts = [(r["config"], [float(r[k]) for k in keys], r["front"] == "1") for r in rs]
    for c, v, f in pts:
        beaten = any(all(a <= b for a, b in zip(w, v)) and any(a < b for a, b in zip(w, v))
                     for _, w, _ in pts)
        assert f == (not beaten), (g, c)
PY

# refused, exit 2, nothing written
refused() {	# WHAT PATTERN ARGS...
	rm -f "$T/x.json"
	expect_err 2 "$@"
	[ ! -e "$T/x.json" ] || bad "$1: $T/x.json written"
}
refused "a malformed range" "ends below its start" \
	"$IDLELAB" sweep -g 'teo:pulse=1024..256/256' -o "$T/x.json" $TR
refused "a zero step" "step that is not positive" \
	"$IDLELAB" sweep -g 'teo:pulse=1..9/0' -o "$T/x.json" $TR
refused "an unknown parameter" "has no parameter 'nosuch'" \
	"$IDLELAB" sweep -g 'teo:nosuch=1|2' -o "$T/x.json" $TR
refused "too many cells" "more than 10000; --force" \
	"$IDLELAB" sweep -g 'teo:pulse=1..5000' -o "$T/x.json" $TR
refused "a shard out of range" "shard: '4/3'" \
	"$IDLELAB" sweep --shard 4/3 -g teo -o "$T/x.json" $TR
refused "no governor" "-g SPEC is required" \
	"$IDLELAB" sweep -o "$T/x.json" $TR
refused "a missing trace" "nosuch.idl" \
	"$IDLELAB" sweep -g teo -o "$T/x.json" "$T/nosuch.idl"
refused "merge: a shard missing" "24 of 72 cells missing" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/p2.json"
refused "merge: a shard twice" "is in both" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/p1.json" "$T/p2.json" "$T/p3.json"
sweep --shard 1/3 -g teo -o "$T/other.json" $TR || bad "other sweep"
refused "merge: another sweep" "another sweep" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/other.json"
refused "merge: not a sweep" "not the results of idlelab sweep" \
	"$IDLELAB" merge -o "$T/x.json" "$T/one.json"
python3 - "$T/p2.json" "$T/forged.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["cells"][0]["config"] = "teo:pulse=1"
json.dump(d, open(sys.argv[2], "w"))
PY
refused "merge: a forged cell" "not where the sweep's grid puts it" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/forged.json" "$T/p3.json"
python3 - "$T/p2.json" "$T/nores.json" "$T/total.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["cells"][0]["results"]
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["sweep"]["cells_total"] -= 1
json.dump(d, open(sys.argv[3], "w"))
PY
refused "merge: a cell without results" "nores.json: cell 1 has no results" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/nores.json" "$T/p3.json"
refused "merge: an edited cell count" \
	"total.json: 71 cells in all, but 72 in $T/p1.json of the same sweep" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/total.json" "$T/p3.json"
# the same id with another grid, and a value no replay writes (issue 32,
# item 9)
python3 - "$T/p2.json" "$T/grid.json" "$T/absurd.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["sweep"]["traces"][0] = "elsewhere.idl"
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["cells"][0]["results"]["selects"] = 1e308
json.dump(d, open(sys.argv[3], "w"))
PY
refused "merge: the same id, another grid" \
	"grid.json: the traces of the sweep differ from $T/p1.json's" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/grid.json" "$T/p3.json"
refused "merge: selects 1e308" \
	"absurd.json: cell 1: its results' 'selects' is not of the kind" \
	"$IDLELAB" merge -o "$T/x.json" "$T/p1.json" "$T/absurd.json" "$T/p3.json"
refused "compare: a shard" "a shard" "$IDLELAB" compare "$T/p1.json"
refused "compare: a sweep with --style" "are for benchmark runs" \
	"$IDLELAB" compare -s mmtests "$T/all.json"
refused "report: a sweep with -S" "is for benchmark runs" \
	"$IDLELAB" report -S ci -o "$T/x.html" "$T/all.json"
"$IDLELAB" report -o "$T/sweep.html" "$T/all.json" 2>"$T/err" &&
	grep -q "Pareto front: [0-9]* of 12" "$T/sweep.html" &&
	{ ! command -v gnuplot >/dev/null || grep -q 'data-plot="pareto"' "$T/sweep.html"; } &&
	ok "report: the front (plotted with gnuplot)" || bad "report: $(cat "$T/err")"
# a label with '_' is text, not gnuplot's subscript markup
if command -v gnuplot >/dev/null; then
	sweep -g 'teo:decay_shift=2|4' -g menu -o "$T/ds.json" "$D/pipe-menu.idl" &&
		"$IDLELAB" report -o "$T/ds.html" "$T/ds.json" &&
		grep -q '>teo:decay_shift=[24]<' "$T/ds.html" &&
		ok "report: Pareto labels as written" || bad "report: Pareto labels"
fi
finish
