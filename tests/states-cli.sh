#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab states: exit statuses, --list, formats, file round trip.
set -u
: "${IDLELAB:?}" "${top_srcdir:?}"
FIX="$top_srcdir/tests/fixtures"
tmp=$(mktemp -d /tmp/states-cli.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# expect STATUS CMD...: run CMD, check its exit status
expect() {
	want=$1; shift
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ "$got" != "$want" ]; then
		echo "FAIL: '$*' exited $got, expected $want"; cat "$tmp/err"
		fail=1
	fi
}

# has FILE PATTERN: FILE contains the fixed string PATTERN
has() {
	if ! grep -qF -- "$2" "$1"; then
		echo "FAIL: '$2' not in $1:"; cat "$1"
		fail=1
	fi
}

expect 0 "$IDLELAB" states --help
has "$tmp/out" "usage: idlelab states"
expect 2 "$IDLELAB" states --bogus
expect 2 "$IDLELAB" states --format yaml --machine skx
expect 2 "$IDLELAB" states --cpu x
expect 2 "$IDLELAB" states --machine skx --file "$FIX/tables/haltpoll.table"
expect 2 "$IDLELAB" states --machine skylakex
has "$tmp/err" "--list"
expect 2 "$IDLELAB" states --machine skxx
has "$tmp/err" "did you mean: skx"
expect 2 "$IDLELAB" states --file "$tmp/none.table"
expect 2 "$IDLELAB" states --file "$FIX/tables/bad-gap.table"
has "$tmp/err" "bad-gap.table:5: state 3 follows state 1: state 2 is missing"
expect 1 "$IDLELAB" states --sysfs-root "$tmp"

# --list: one line per table after the header, at least 25
expect 0 "$IDLELAB" states --list
n=$(($(wc -l <"$tmp/out") - 1))
[ "$n" -ge 25 ] || { echo "FAIL: --list shows only $n tables"; fail=1; }
has "$tmp/out" "vm-haltpoll"
expect 0 "$IDLELAB" states --list --format csv
[ "$(($(wc -l <"$tmp/out") - 1))" -eq "$n" ] || { echo "FAIL: csv list"; fail=1; }
# --list lists the built-in tables, nothing else: a table option with it
# is a usage error, and nothing is saved
expect 2 "$IDLELAB" states --list --save "$tmp/l.table"
[ ! -e "$tmp/l.table" ] || { echo "FAIL: --list --save wrote"; fail=1; }
expect 2 "$IDLELAB" states --list --machine skx
expect 2 "$IDLELAB" states --list --format json

# skx from intel_idle_tables.csv: C6 133 us / 600 us
expect 0 "$IDLELAB" states --machine skx --format csv
has "$tmp/out" "3,C6,MWAIT 0x20,133,600,tlb_flushed,0,,"
[ "$(wc -l <"$tmp/out")" -eq 5 ] || { echo "FAIL: skx csv lines"; fail=1; }
cp "$tmp/out" "$tmp/skx.csv"
expect 0 "$IDLELAB" states --machine vm-haltpoll
has "$tmp/out" "haltpoll idle:"
has "$tmp/out" "Source: "
expect 0 "$IDLELAB" states --machine juno --format json
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["states"][1]["exit_latency_ns"] == 1500000, d
assert d["states"][0]["power"] == 15 and d["power_unit"] == "relative"' \
		"$tmp/out" || { echo "FAIL: json"; fail=1; }
fi

# save and load back: same CSV; the warning table is accepted
expect 0 "$IDLELAB" states --machine skx --save "$tmp/skx.table"
expect 0 "$IDLELAB" states --file "$tmp/skx.table" --format csv
cmp -s "$tmp/out" "$tmp/skx.csv" || { echo "FAIL: round trip"; fail=1; }
expect 0 "$IDLELAB" states --file "$FIX/tables/warn.table"
has "$tmp/err" "warning: "
expect 0 "$IDLELAB" states --machine "$FIX/tables/haltpoll.table"

# fixture sysfs trees
expect 0 "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl" --format csv
has "$tmp/out" "8,C10,MWAIT 0x60,890,5000,none,0,,"
has "$tmp/out" "5,C7s,MWAIT 0x33,124,800,none,1,,"
expect 0 "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl" --cpu 1
has "$tmp/out" "CPUidle governor: menu (available: ladder menu teo haltpoll)"
expect 0 "$IDLELAB" states --sysfs-root "$FIX/sysfs-haltpoll"
has "$tmp/out" "haltpoll idle:"

# A trace carries one table for all its CPUs: a CPU whose states differ
# from the one read is named.  In the fixture C7s is disabled on CPU 0
# only; once it is on CPU 1 too the CPUs agree.
expect 0 "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl"
has "$tmp/err" "CPU 1's disabled states differ from CPU 0's: a trace holds"
cp -R "$FIX/sysfs-skl" "$tmp/het" && chmod -R u+w "$tmp/het" || exit 99
echo 1 >"$tmp/het/cpu1/cpuidle/state5/disable"
expect 0 "$IDLELAB" states --sysfs-root "$tmp/het"
[ ! -s "$tmp/err" ] || { echo "FAIL: warned on alike CPUs:"; cat "$tmp/err"; fail=1; }
echo 200 >"$tmp/het/cpu1/cpuidle/state2/latency"
expect 0 "$IDLELAB" states --sysfs-root "$tmp/het" --cpu 1
has "$tmp/err" "CPU 0's idle states differ from CPU 1's: a trace holds"

exit $fail
