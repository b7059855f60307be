#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# idlelab states: exit statuses, --list, formats, file round trip.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
FIX="$top_srcdir/tests/fixtures"
tmpdir

expect 0 "states --help" "$IDLELAB" states --help
has "$T/out" "usage: idlelab states"
expect 2 "states --bogus" "$IDLELAB" states --bogus
expect 2 "states --format yaml --machine skx" "$IDLELAB" states --format yaml --machine skx
expect 2 "states --cpu x" "$IDLELAB" states --cpu x
expect 2 "states --machine skx --file haltpoll.table" "$IDLELAB" states --machine skx --file "$FIX/tables/haltpoll.table"
expect 2 "states --machine skylakex" "$IDLELAB" states --machine skylakex
has "$T/err" "--list"
expect 2 "states --machine skxx" "$IDLELAB" states --machine skxx
has "$T/err" "did you mean: skx"
expect 2 "states --file none.table" "$IDLELAB" states --file "$T/none.table"
expect 2 "states --file bad-gap.table" "$IDLELAB" states --file "$FIX/tables/bad-gap.table"
has "$T/err" "bad-gap.table:5: state 3 follows state 1: state 2 is missing"
expect 1 "states --sysfs-root EMPTY-DIR" "$IDLELAB" states --sysfs-root "$T"

# --list: one line per table after the header, at least 25
expect 0 "states --list" "$IDLELAB" states --list
n=$(($(wc -l <"$T/out") - 1))
[ "$n" -ge 25 ] || bad "--list shows only $n tables"
has "$T/out" "vm-haltpoll"
expect 0 "states --list --format csv" "$IDLELAB" states --list --format csv
[ "$(($(wc -l <"$T/out") - 1))" -eq "$n" ] || bad "csv list"
# --list lists the built-in tables, nothing else: a table option with it
# is a usage error, and nothing is saved
expect 2 "states --list --save l.table" "$IDLELAB" states --list --save "$T/l.table"
[ ! -e "$T/l.table" ] || bad "--list --save wrote"
expect 2 "states --list --machine skx" "$IDLELAB" states --list --machine skx
expect 2 "states --list --format json" "$IDLELAB" states --list --format json

# skx from intel_idle_tables.csv: C6 133 us / 600 us
expect 0 "states --machine skx --format csv" "$IDLELAB" states --machine skx --format csv
has "$T/out" "3,C6,MWAIT 0x20,133,600,tlb_flushed,0,,"
[ "$(wc -l <"$T/out")" -eq 5 ] || bad "skx csv lines"
cp "$T/out" "$T/skx.csv"
expect 0 "states --machine vm-haltpoll" "$IDLELAB" states --machine vm-haltpoll
has "$T/out" "haltpoll idle:"
has "$T/out" "Source: "
expect 0 "states --machine juno --format json" "$IDLELAB" states --machine juno --format json
if [ -n "${PYTHON3:-}" ]; then
	"$PYTHON3" -c 'import json,sys; d=json.load(open(sys.argv[1]));
assert d["states"][1]["exit_latency_ns"] == 1500000, d
assert d["states"][0]["power"] == 15 and d["power_unit"] == "relative"' \
		"$T/out" || bad "json"
fi

# save and load back: same CSV; the warning table is accepted
expect 0 "states --machine skx --save skx.table" "$IDLELAB" states --machine skx --save "$T/skx.table"
expect 0 "states --file skx.table --format csv" "$IDLELAB" states --file "$T/skx.table" --format csv
cmp -s "$T/out" "$T/skx.csv" || bad "round trip"
expect 0 "states --file warn.table" "$IDLELAB" states --file "$FIX/tables/warn.table"
has "$T/err" "warning: "
expect 0 "states --machine haltpoll.table" "$IDLELAB" states --machine "$FIX/tables/haltpoll.table"

# fixture sysfs trees
expect 0 "states --sysfs-root sysfs-skl --format csv" "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl" --format csv
has "$T/out" "8,C10,MWAIT 0x60,890,5000,none,0,,"
has "$T/out" "5,C7s,MWAIT 0x33,124,800,none,1,,"
expect 0 "states --sysfs-root sysfs-skl --cpu 1" "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl" --cpu 1
has "$T/out" "CPUidle governor: menu (available: ladder menu teo haltpoll)"
expect 0 "states --sysfs-root sysfs-haltpoll" "$IDLELAB" states --sysfs-root "$FIX/sysfs-haltpoll"
has "$T/out" "haltpoll idle:"

# A trace carries one table for all its CPUs: a CPU whose states differ
# from the one read is named.  In the fixture C7s is disabled on CPU 0
# only; once it is on CPU 1 too the CPUs agree.
expect 0 "states --sysfs-root sysfs-skl" "$IDLELAB" states --sysfs-root "$FIX/sysfs-skl"
has "$T/err" "CPU 1's disabled states differ from CPU 0's: a trace holds"
cp -R "$FIX/sysfs-skl" "$T/het" && chmod -R u+w "$T/het" || exit 99
echo 1 >"$T/het/cpu1/cpuidle/state5/disable"
expect 0 "states --sysfs-root het" "$IDLELAB" states --sysfs-root "$T/het"
[ ! -s "$T/err" ] || bad "warned on alike CPUs: $(cat "$T/err")"
echo 200 >"$T/het/cpu1/cpuidle/state2/latency"
expect 0 "states --sysfs-root het --cpu 1" "$IDLELAB" states --sysfs-root "$T/het" --cpu 1
has "$T/err" "CPU 0's idle states differ from CPU 1's: a trace holds"

finish
