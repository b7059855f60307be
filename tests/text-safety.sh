#!/bin/sh
# Names from outside on their way out (issue 18, items 7 and 9): bytes
# that are not UTF-8 give valid JSON, escape sequences and newlines never
# reach a terminal raw, and CSV text cells that a spreadsheet would take
# for a formula are prefixed with an apostrophe (numbers stay numbers).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
: "${PYTHON3:=python3}"
tmpdir
ESC=$(printf '\033')
# valid JSON (UTF-8 included), when a Python is there to say so
valid_json() {
	command -v "$PYTHON3" > /dev/null || return 0
	"$PYTHON3" -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1" 2> /dev/null
}
no_esc() { ! grep -q "$ESC" "$1"; }

printf 'name bad\377name\nstate 0 POLL 0 0 flags=polling\nstate 1 "C1\303" 2 2 desc="esc\033[31mred"\nstate 2 "=HYPERLINK(1)" 10 20\n' > "$T/t.table"
"$IDLELAB" synth -m skx --pattern periodic -d 0.01 -o "$T/t.trace" > /dev/null 2>&1 \
	|| bad "synth"

"$IDLELAB" states --file "$T/t.table" --format json > "$T/s.json" 2> "$T/err"
[ $? = 0 ] && valid_json "$T/s.json" && ok "states --format json: valid JSON" \
	|| bad "states --format json: $(cat "$T/err")"
grep -q "not UTF-8" "$T/err" && ok "states: says the names were changed" \
	|| bad "states: no warning: $(cat "$T/err")"
"$IDLELAB" states --file "$T/t.table" > "$T/s.txt" 2>&1
no_esc "$T/s.txt" && ok "states text: no raw escape sequence" \
	|| bad "states text: raw ESC"
"$IDLELAB" states --file "$T/t.table" --format csv > "$T/s.csv" 2> /dev/null
grep -q "^2,\"'=HYPERLINK(1)\"," "$T/s.csv" && ok "states csv: formula cell prefixed" \
	|| bad "states csv: $(grep '^2,' "$T/s.csv")"

for o in stdout file; do
	if [ $o = file ]; then
		"$IDLELAB" replay --states "$T/t.table" --format json -o "$T/r.json" \
			"$T/t.trace" > /dev/null 2> "$T/err"
	else
		"$IDLELAB" replay --states "$T/t.table" --format json \
			"$T/t.trace" > "$T/r.json" 2> "$T/err"
	fi
	rc=$?
	[ $rc = 0 ] && valid_json "$T/r.json" && ok "replay --format json ($o): valid JSON" \
		|| bad "replay --format json ($o): exit $rc, $(cat "$T/err")"
done
"$IDLELAB" replay --states "$T/t.table" --format csv "$T/t.trace" > "$T/r.csv" 2> /dev/null
no_esc "$T/r.csv" && ok "replay csv: no raw escape sequence" || bad "replay csv: raw ESC"

tr=$top_srcdir/tests/bad-input/trace-meta-not-utf8.trace
"$IDLELAB" info --format json "$tr" > "$T/i.json" 2> /dev/null
[ $? = 0 ] && valid_json "$T/i.json" && grep -q '"C1??\[31m"' "$T/i.json" \
	&& ok "info --format json: valid, the state name kept (as C1??[31m)" \
	|| bad "info --format json: $(head -c 300 "$T/i.json")"
"$IDLELAB" info "$tr" > "$T/i.txt" 2>&1
no_esc "$T/i.txt" && ok "info text: no raw escape sequence" || bad "info text: raw ESC"

# results: a formula, an escape sequence, negative numbers
cat > "$T/res.json" <<'JSON'
{"format": "idlelab-results", "version": 1, "kind": "live",
 "configs": ["menu", "teo"],
 "benchmarks": [
  {"name": "=cmd|' /C calc'!A0", "case": "@SUM(1)", "metric": "-delta",
   "unit": "+us", "higher_is_better": false,
   "values": {"menu": [-5, -6], "teo": [-7, -8]}},
  {"name": "esc\u001b[2Jname", "case": "", "metric": "m\nnl",
   "unit": "us", "higher_is_better": true,
   "values": {"menu": [1, 2], "teo": [3, 4]}}]}
JSON
"$IDLELAB" compare --format csv "$T/res.json" > "$T/c.csv" 2> "$T/err"
grep -q "^\"'=cmd|' /C calc'!A0\",\"'@SUM(1)\",\"'-delta\",\"'+us\",0,\"menu\",2,-5.5," "$T/c.csv" \
	&& ok "compare csv: text cells prefixed, negative numbers unchanged" \
	|| bad "compare csv: $(grep -a cmd "$T/c.csv")"
"$IDLELAB" compare "$T/res.json" > "$T/c.txt" 2>&1
no_esc "$T/c.txt" && ! grep -q '^nl' "$T/c.txt" \
	&& ok "compare text: no raw escape sequence or newline" \
	|| bad "compare text: raw ESC or newline"

# trace file names and arguments with escape sequences (issue 32, item
# 8): info, replay (text, CSV, --disagreements) and error messages show
# '?' for them; sweep writes a name that is not UTF-8
E="$T/esc${ESC}[31mred.idl"
cp "$T/t.trace" "$E"
for c in "info" "replay" "replay --format csv" "replay -g menu --disagreements 1"; do
	# shellcheck disable=SC2086
	"$IDLELAB" $c "$E" > "$T/o.txt" 2>&1
	no_esc "$T/o.txt" && grep -q 'esc?\[31mred' "$T/o.txt" \
		&& ok "$c: the file name without its escape sequence" \
		|| bad "$c: raw ESC or no name: $(head -3 "$T/o.txt")"
done
"$IDLELAB" info "$T/no${ESC}[2Jsuch" > "$T/o.txt" 2>&1
no_esc "$T/o.txt" && grep -q 'no?\[2Jsuch' "$T/o.txt" \
	&& ok "error message: no raw escape sequence" \
	|| bad "error message: $(cat "$T/o.txt")"
"$IDLELAB" replay --jobs "${ESC}[2J" "$T/t.trace" > "$T/o.txt" 2>&1
no_esc "$T/o.txt" && ok "option error: no raw escape sequence" \
	|| bad "option error: raw ESC"
N="$T/bad$(printf '\377').idl"
cp "$T/t.trace" "$N"
"$IDLELAB" sweep -g menu -o "$T/sw.json" "$N" > "$T/o.txt" 2>&1
[ $? = 0 ] && valid_json "$T/sw.json" \
	&& ok "sweep: a trace name that is not UTF-8" \
	|| bad "sweep: $(cat "$T/o.txt")"

echo "$passes passed, $fails failed"
finish
