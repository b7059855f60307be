#!/bin/sh
# idlelab compare / report end to end: golden tables, exit statuses, and
# a page that a browser loads with its plots.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
fx="$top_srcdir/tests/fixtures/results"
tmpdir
check() {	# check NAME EXPECTED ACTUAL
	if [ "$2" != "$3" ]; then
		bad "$1: expected '$2', got '$3'"
	else
		ok "$1"
	fi
}

"$IDLELAB" compare -s mmtests "$fx/live-small.json" >"$T/mm" 2>"$T/err"
check "mmtests exit" 0 $?
if diff -u "$fx/live-small.mmtests.txt" "$T/mm"; then ok "mmtests golden"; else bad "mmtests golden (the diff above)"; fi
grep -q "timer: no runs in 'ladder' in 1 of 1 row (lateness-p50; case 401Hz; shown as n/a)" "$T/err"
check "missing config reported" 0 $?

"$IDLELAB" compare -s normalized "$fx/live-small.json" >"$T/norm" 2>/dev/null
if diff -u "$fx/live-small.normalized.txt" "$T/norm"; then ok "normalized golden"; else bad "normalized golden (the diff above)"; fi

# significance rule: the latency of ladder is significant by t-test
# (p = 0.021) but its 95% bands overlap (cidiff 0.77); timer's menu runs
# (60, 60) against (50, 52): cidiff 9 / (1.96 * 1.414) = 3.25
"$IDLELAB" compare -s mmtests -S ci "$fx/live-small.json" 2>/dev/null | grep '\*' >"$T/n"
check "ci rule marks one cell" 1 "$(wc -l <"$T/n")"
grep -q '^Amean     lateness-p50-401Hz .*60.00 \* -17.65%\*' "$T/n"
check "ci rule marks timer/menu" 0 $?

"$IDLELAB" compare -f csv "$fx/live-small.json" 2>/dev/null | grep -c '^"pingpong"' >"$T/n"
check "csv rows" 6 "$(cat "$T/n")"
"$IDLELAB" compare -f json "$fx/live-small.json" 2>/dev/null | grep -c '"significant": true' >"$T/n"
check "json significant cells" 3 "$(cat "$T/n")"

"$IDLELAB" compare "$fx/bad-config.json" >/dev/null 2>"$T/err"
check "bad input exit" 2 $?
grep -q "bad-config.json: benchmark x: config 'teo' is not in" "$T/err"
check "bad input message" 0 $?
"$IDLELAB" compare "$fx/bad-syntax.json" >/dev/null 2>&1
check "bad json exit" 2 $?
"$IDLELAB" compare >/dev/null 2>&1
check "no args exit" 2 $?
"$IDLELAB" compare -s fancy "$fx/live-small.json" >/dev/null 2>&1
check "bad style exit" 2 $?
"$IDLELAB" compare --help | grep -q '^usage: idlelab compare'
check "help" 0 $?

# A negative base (a regret below the oracle's, lower is better): from
# -10 to -5 is worse by 50 % of the base's size, not better; the normalized
# table has no ratio to a negative base.  One run: n/a, never "nan".
cat >"$T/neg.json" <<'EOF'
{"format":"idlelab-results","version":1,"kind":"live","configs":["base","new"],
"benchmarks":[
{"name":"b","case":"neg","metric":"regret","unit":"%","higher_is_better":false,"values":{"base":[-10,-10],"new":[-5,-5]}},
{"name":"b","case":"one","metric":"lat","unit":"us","higher_is_better":false,"values":{"base":[10],"new":[12]}}
]}
EOF
"$IDLELAB" compare -s mmtests "$T/neg.json" >"$T/negmm" 2>/dev/null
grep -q '^Amean  *regret-neg  *-10.00 (  *0.00 pts)  *-5.00 [(*]  *-5.00 pts' "$T/negmm"
check "negative base: worse, in points" 0 $?
grep -qi 'nan' "$T/negmm"
check "no nan printed" 1 $?
"$IDLELAB" compare -s normalized "$T/neg.json" 2>/dev/null |
	grep -q '^ *neg  *- \[  *0.00 pts\]( 0.00)  *- \[ *-5.00 pts\]( 0.00)'
check "normalized: a percentage as a difference" 0 $?
"$IDLELAB" compare -f csv "$T/neg.json" 2>/dev/null |
	grep '"neg"' | grep -q ',-50\(\.0*\)\{0,1\},'
check "csv pct_better -50" 0 $?

# The same metric in other units (or the other way better) in a second
# file is refused: its ratios would be wrong
sed 's/"unit":"us"/"unit":"ms"/' "$T/neg.json" >"$T/neg-ms.json"
"$IDLELAB" compare "$T/neg.json" "$T/neg-ms.json" >/dev/null 2>"$T/err"
check "units differ: exit" 2 $?
grep -q "neg-ms.json: b one lat is in 'ms' here, in 'us' in an earlier file" "$T/err"
check "units differ: message" 0 $?
sed 's/"higher_is_better":false/"higher_is_better":true/' "$T/neg.json" \
	>"$T/neg-hib.json"
"$IDLELAB" compare "$T/neg.json" "$T/neg-hib.json" >/dev/null 2>"$T/err"
check "direction differs: exit" 2 $?
grep -q "neg-hib.json: b neg regret: higher is better here, the other way in an earlier file" "$T/err"
check "direction differs: message" 0 $?

# one benchmark, case and metric twice: which would count? refused; an
# idle rate must be a number or null
python3 - "$T/neg.json" "$T/dup.json" "$T/idle.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["benchmarks"].append(dict(d["benchmarks"][1]))
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["idle"] = {"base": {"above_pct": "x", "below_pct": None}}
json.dump(d, open(sys.argv[3], "w"))
PY
"$IDLELAB" compare "$T/dup.json" >/dev/null 2>"$T/err"
check "duplicate row: exit" 2 $?
grep -q "dup.json: benchmark b case 'one' metric lat appears twice (entries 2 and 3)" "$T/err"
check "duplicate row: message" 0 $?
"$IDLELAB" compare "$T/idle.json" >/dev/null 2>"$T/err"
check "idle rate not a number: exit" 2 $?
grep -q 'idle.json: "idle": "above_pct" must be a number or null' "$T/err"
check "idle rate not a number: message" 0 $?

# a replay without periods: its undefined rates are n/a, and the report
# is written without the plots that have nothing to show
head -c 5000 "$top_srcdir/traces/data/default.idl" >"$T/cut0.idl"
"$IDLELAB" replay -g teo,menu --format json -o "$T/z.json" "$T/cut0.idl" 2>/dev/null
"$IDLELAB" compare "$T/z.json" 2>/dev/null | grep -q '^above %  *n/a  *n/a$'
check "no periods: above n/a" 0 $?
"$IDLELAB" report -o "$T/z.html" "$T/z.json" 2>"$T/err"
check "no periods: report exit" 0 $?
check "no periods: report quiet" "" "$(cat "$T/err")"

# two inputs: columns are labelled by input
"$IDLELAB" compare -s summary "$fx/live-small.json" "$fx/live-small.json" 2>/dev/null >"$T/two"
# (the same name twice: numbered by position)
grep -q "live-small#1/menu .* live-small#2/menu" "$T/two"
check "two inputs labelled" 0 $?

# report: atomic write, plots when gnuplot is there
"$IDLELAB" report -o "$T/r.html" "$fx/live-small.json" 2>/dev/null
check "report exit" 0 $?
ls "$T" | grep -c 'r.html.tmp' >"$T/n"
check "no temp file left" 0 "$(cat "$T/n")"
if command -v gnuplot >/dev/null 2>&1; then
	grep -c 'data-plot="runs"' "$T/r.html" >"$T/n"
	check "one runs plot per row" 3 "$(cat "$T/n")"
	grep -q 'data-plot="residency"' "$T/r.html"
	check "residency plot" 0 $?
	# several gnuplot SVGs in one page: every id once, every
	# reference to one that is there
	python3 - "$T/r.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
ids = re.findall(r"""\bid=['"]([^'"]*)['"]""", s)
refs = re.findall(r"""(?:href=['"]#|url\(#)([^'")]*)""", s)
assert len(ids) > 20 and len(ids) == len(set(ids)), len(ids) - len(set(ids))
assert refs and set(refs) <= set(ids), set(refs) - set(ids)
PY
	check "report: ids unique, references resolved" 0 $?
fi
# one gnuplot for all the plots of a report (issue 32, item 5: one per
# plot, ~40 ms each, made 20,000 rows take minutes), and a gnuplot that
# ends in the middle costs the plot it was on, not the others
if command -v gnuplot >/dev/null 2>&1; then
	mkdir -p "$T/gp"
	cat >"$T/gp/gnuplot" <<GP
#!/bin/sh
[ \$# -gt 0 ] && exec "$(command -v gnuplot)" "\$@"
echo start >>"$T/gp/starts"
if [ -e "$T/gp/cut" ] && [ ! -e "$T/gp/cut-done" ]; then
	: >"$T/gp/cut-done"
	head -n 3 | "$(command -v gnuplot)"
	exit 1
fi
exec "$(command -v gnuplot)"
GP
	chmod +x "$T/gp/gnuplot"
	python3 -c 'import json, sys; json.dump({"format": "idlelab-results",
		"version": 1, "kind": "live", "configs": ["menu", "teo"],
		"benchmarks": [{"name": "b%d" % i, "case": "", "metric": "m",
		"unit": "us", "higher_is_better": False, "values": {"menu": [1, 2],
		"teo": [3, i + 4]}} for i in range(60)]}, sys.stdout)' >"$T/r60.json"
	PATH=$T/gp:$PATH "$IDLELAB" report -o "$T/r60.html" "$T/r60.json" 2>/dev/null
	check "report of 60 rows" 0 $?
	check "report: one gnuplot for 60 plots" 1 "$(wc -l <"$T/gp/starts" | tr -d ' ')"
	check "report: 60 runs plots" 60 "$(grep -c 'data-plot="runs"' "$T/r60.html")"
	: >"$T/gp/cut"
	rm -f "$T/gp/starts"
	PATH=$T/gp:$PATH "$IDLELAB" report -o "$T/r60.html" "$T/r60.json" 2>/dev/null
	check "report: a gnuplot that ends" 0 $?
	check "report: the plots after it" 59 "$(grep -c 'data-plot="runs"' "$T/r60.html")"
fi
"$IDLELAB" report -o /dev/full/x.html "$fx/live-small.json" >/dev/null 2>&1
check "report to unwritable path" 1 $?
"$IDLELAB" report "$fx/live-small.json" >/dev/null 2>&1
check "report without -o" 2 $?

# names from a results file reach gnuplot only as text: a backquote (which
# gnuplot would run even inside a double-quoted string) runs nothing
if command -v gnuplot >/dev/null 2>&1; then
	sed -e 's/"pingpong"/"x`touch PWNED`"/' \
	    -e 's/"unit": "us"/"unit": "us`touch PWNED2`"/' \
		"$fx/live-small.json" >"$T/inj.json"
	grep -q 'touch PWNED2' "$T/inj.json"
	check "injection fixture made" 0 $?
	(cd "$T" && "$IDLELAB" report -o inj.html inj.json 2>/dev/null)
	check "report of hostile names exit" 0 $?
	ls "$T" | grep -c PWNED >"$T/n"
	check "nothing run from a results file" 0 "$(cat "$T/n")"
fi

# Two traces in one replay file are two cases, never two runs; the
# summary keeps the oracle first on the misprediction metrics (where
# every figure it has is 0) and the idle table says what it pools.
d="$top_srcdir/traces/data"
"$IDLELAB" replay --format json -o "$T/two.json" "$d/idle-menu.idl" \
	"$d/pipe-menu.idl" 2>/dev/null
"$IDLELAB" compare -s mmtests "$T/two.json" >"$T/two.mm" 2>/dev/null
grep -c '^Amean *energy-\(idle\|pipe\)-menu ' "$T/two.mm" >"$T/n"
check "each trace its own case" 2 "$(cat "$T/n")"
grep -c '^\(Stddev\|CoeffVar\)' "$T/two.mm" >"$T/n"
check "no spread of one run" 0 "$(cat "$T/n")"
"$IDLELAB" compare -s summary "$T/two.json" >"$T/two.sum" 2>/dev/null
for m in energy_regret_pct above_pct below_pct; do
	line=$(grep "^  replay  *$m " "$T/two.sum")
	# the oracle is the last column: never worse, never below another
	case "${line##*  }" in
	*worse*) check "oracle on $m" "not worse" "${line##*  }" ;;
	*) check "oracle on $m" ok ok ;;
	esac
	echo "$line" | grep -o '[0-9.]* pts better' | awk '{ print $1 }' \
		>"$T/v"
	best=$(sort -g "$T/v" | tail -n 1)
	last=$(echo "$line" | grep -o '[0-9.]* pts better$' | awk '{ print $1 }')
	[ -z "$best" ] || check "oracle first on $m" "$best" "$last"
done
grep -q '^(2 of 2 traces pooled, on this machine (cpu 0))$' "$T/two.sum"
check "idle table scope" 0 $?
# every line of a normalized table as wide as its header
"$IDLELAB" compare -s normalized "$T/two.json" 2>/dev/null | awk '
	/^idle governor/ { exit }
	/^Case:/ { w = length($0); next }
	/^=|^Test|^Units|^Interp|^Statistic|^$/ { next }
	length($0) != w { bad++ } END { print bad + 0 }' >"$T/n"
check "normalized columns aligned" 0 "$(cat "$T/n")"
"$IDLELAB" compare "$d/idle-menu.idl" >/dev/null 2>"$T/err"
check "a trace given to compare" 2 $?
grep -q 'an idlelab trace, not a results file: replay it first' "$T/err"
check "a trace given to compare: said so" 0 $?

# a replay results file: the replay plots appear, the all-null agreement
# row is n/a, neither an error nor a warning (only the live governor's
# column can have it)
if command -v gnuplot >/dev/null 2>&1; then
	"$IDLELAB" replay --synthetic 2000:1 --format json -o "$T/rp.json" 2>/dev/null
	"$IDLELAB" report -o "$T/rp.html" "$T/rp.json" 2>"$T/err"
	check "replay report exit" 0 $?
	for p in idle-histogram vs-oracle-state vs-oracle-cause; do
		grep -q "data-plot=\"$p\"" "$T/rp.html"
		check "replay plot $p" 0 $?
	done
	"$IDLELAB" compare "$T/rp.json" >"$T/rp.txt" 2>"$T/err"
	check "null agreement: no warning" "" "$(cat "$T/err")"
	grep -q '^Hmean  *agreement_pct-[^ ]*  *n/a ' "$T/rp.txt"
	check "null agreement: n/a" 0 $?
fi

# only_some is a boolean
sed 's/"higher_is_better":false,"values":{"base":\[-10,-10\]/"higher_is_better":false,"only_some":"yes","values":{"base":[-10,-10]/' \
	"$T/neg.json" >"$T/some.json"
"$IDLELAB" compare "$T/some.json" >/dev/null 2>"$T/err"
check "only_some not a boolean: exit" 2 $?
grep -q 'only_some" must be true or false' "$T/err"
check "only_some not a boolean: said so" 0 $?

# issue 33's example: two bundled traces replayed, compared.  No warning
# (agreement is the live governor's alone), no ratio of a percentage,
# and no change shown between values that print the same.
"$IDLELAB" replay --format json -o "$T/two.json" \
	"$top_srcdir/traces/data/idle-menu.idl" \
	"$top_srcdir/traces/data/pipe-menu.idl" 2>/dev/null
"$IDLELAB" compare "$T/two.json" >"$T/two.txt" 2>"$T/err"
check "two traces: compare exit" 0 $?
check "two traces: no warning" "" "$(cat "$T/err")"
grep -E '^[A-Za-z]+ +[a-z_]+_pct-[^ ]+ .*%\)' "$T/two.txt" >"$T/bad"
check "two traces: no ratio of a percentage" "" "$(cat "$T/bad")"
awk '/^Test / { pct = $NF ~ /_pct$/ }
     pct && /^ *[a-z-]+ +[0-9.]+ \[/' "$T/two.txt" >"$T/bad"
check "two traces: normalized percentages are differences" "" \
	"$(cat "$T/bad")"
# every mmtests cell "V (C...)" whose V prints as the baseline's: C is 0
awk '/^(Min|Amean|Hmean|Stddev|CoeffVar|Max) / {
	n = split($0, f, /[()*]/); base = ""
	for (i = 1; i < n; i += 2) {
		k = split(f[i], w, " "); v = w[k]
		if (base == "") base = v
		else if (v == base && f[i + 1] !~ /^ *0\.00/) print
	}
}' "$T/two.txt" >"$T/bad"
check "two traces: no change between equal values" "" "$(cat "$T/bad")"

# the page loads in a headless browser without errors, with its SVGs
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ] && command -v gnuplot >/dev/null 2>&1; then
	"$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$T/chr" \
		--dump-dom "file://$T/r.html" >"$T/dom" 2>"$T/chr.log"
	check "browser exit" 0 $?
	grep -c '<svg' "$T/dom" >"$T/n"
	check "browser sees the plots" 6 "$(cat "$T/n")"
else
	echo "skip: no chromium or gnuplot for the browser check"
fi
finish
