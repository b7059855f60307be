#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Governor plugins: a native one (tests/plugins/deepest.c, the example of
# doc/plugins.md) built with one cc line; kernel-style governors written
# for these tests built with `idlelab governor build` (module_param,
# local_clock(), the old tick_nohz_get_sleep_length(void) and us rules);
# their decisions worked out by hand below.  Then plugin columns in
# replay, and plugins that crash, loop, return a bad index, have another
# ABI, no governor, or do not compile.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler"
P=$top_srcdir/tests/plugins
tmpdir

cc_plugin() {	# OUT SRC [FLAGS]: the one cc line of doc/plugins.md
	out=$1 src=$2
	shift 2
	"$CC" -shared -fPIC -I"$top_srcdir/include" "$@" -o "$out" "$src"
}
kbuild() {	# SRC OUT [ARGS]
	src=$1 out=$2
	shift 2
	"$IDLELAB" governor build "$src" -o "$out" "$@" >"$T/build.out" 2>&1
}
# decide SPEC EXPECTED: the stream below, one line per select expected
decide() {
	"$IDLELAB" decide --governor "$1" <"$T/stream" >"$T/got" 2>"$T/err" ||
		{ bad "decide $1: $(cat "$T/err")"; return; }
	printf '%s\n' $2 | paste -d' ' - - >"$T/want"
	cmp -s "$T/got" "$T/want" && ok "decide $1" ||
		bad "decide $1: got $(tr '\n' '|' <"$T/got") want $(tr '\n' '|' <"$T/want")"
}

# POLL, C1 (2 us / 2 us), C6 (100 us / 600 us); HZ 250 (tick 4 ms).
cat >"$T/stream" <<'EOF'
hz 250
state 0 POLL 0 0 polling
state 1 C1 2000 2000 -
state 2 C6 100000 600000 -
select 500000 3000000 0
reflect 1 400000 0 0
select 900000 3000000 0
reflect 2 800000 0 0
select 5000000 3000000 1
reflect 2 5000000 0 0
latency_req 50000
select 900000 3000000 0
reflect 1 900000 0 0
EOF

# deepest / kdeepest: the deepest state fitting the sleep length less
# the margin, within the latency limit; the tick kept below a tick.
# 500 us: C1 (C6 needs 600), tick kept.  900 us: C6, kept.  5 ms with
# the tick stopped: C6, stop stays.  Limit 50 us: C6 (100 us) excluded.
# margin 50%: 250 us -> C1; 450 us -> C1; 2.5 ms -> C6; C1.
cc_plugin "$T/deepest.so" "$P/deepest.c" || bad "cc deepest.c"
decide "$T/deepest.so" "1 0 2 0 2 1 1 0"
decide "$T/deepest.so:margin_pct=50" "1 0 1 0 2 1 1 0"
kbuild "$P/kdeepest.c" "$T/kdeepest.so" || bad "build kdeepest: $(cat "$T/build.out")"
grep -q 'rules of Linux 6.18' "$T/build.out" || bad "kdeepest: rules: $(cat "$T/build.out")"
decide "$T/kdeepest.so" "1 0 2 0 2 1 1 0"
decide "$T/kdeepest.so:margin_pct=50" "1 0 1 0 2 1 1 0"

# kclock: the state the last idle span (local_clock at select and
# reflect; a stream's clock advances by each residency) would have
# covered: 0 (nothing measured: POLL), 400 us -> C1, 800 us -> C6,
# 5 ms -> C6; it never touches stop_tick.
kbuild "$P/kclock.c" "$T/kclock.so" || bad "build kclock: $(cat "$T/build.out")"
decide "$T/kclock.so" "0 1 1 1 2 1 2 1"

# kold (us rules, no-argument sleep length): 500 us -> C1, 900 -> C6,
# 5000 -> C6, then the 50 us limit excludes C6 (100 us): C1.
kbuild "$P/kold.c" "$T/kold.so" || bad "build kold: $(cat "$T/build.out")"
grep -q 'rules of Linux 5.6 (latency limit in us)' "$T/build.out" ||
	bad "kold: rules: $(cat "$T/build.out")"
decide "$T/kold.so" "1 1 2 1 2 1 1 1"

# governor list: built-ins, and a plugin's name, origin and tunables.
"$IDLELAB" governor list "$T/kdeepest.so" >"$T/list" || bad "governor list"
grep -q "^  menu (built in, follows Linux 6.18.y)" "$T/list" || bad "list: menu"
grep -q "^  $T/kdeepest.so (plugin: governor \"kdeepest\", kernel source kdeepest.c, 6.18 rules)" \
	"$T/list" && ok "list: the plugin's origin" || bad "list: $(cat "$T/list")"
grep -q "^      margin_pct  *module parameter (0, 0..4294967295)" "$T/list" ||
	bad "list: module_param as a tunable"

# Replay: plugin columns beside the built-ins, two builds told apart.
TR=$top_srcdir/traces/data/pipe-menu.idl
"$IDLELAB" replay -g "menu,$T/deepest.so,$T/kdeepest.so:margin_pct=50" \
	--format json -o "$T/r.json" "$TR" 2>"$T/err" || bad "replay: $(cat "$T/err")"
python3 - "$T/r.json" "$T" <<'PY' && ok "replay: plugin columns" || bad "replay: plugin columns"
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]["governors"]
d, k = sys.argv[2] + "/deepest.so", sys.argv[2] + "/kdeepest.so:margin_pct=50"
assert set(t) == {"menu", d, k}, t.keys()
assert t[d]["selects"] > 0 and t[k]["selects"] > 0
assert "error" not in t[d] and "error" not in t[k]
# the plugin's stats hook, through its process: "chosen" per state is
# what it returned, i.e. the column's entries (no bad index)
i = t[d]["internals"]
for s, n in t[d]["entries"].items():
    assert i["chosen/" + s] == n, (s, i, t[d]["entries"])
assert i["ticks_kept"] > 0
assert "internals" not in t[k]
PY

# A plugin whose reflect writes one past its per-CPU ring (koob.c): the
# write stays in that CPU's own per-CPU copy, as in the kernel, so -j 2
# gives what -j 1 gives (with CPUs' copies side by side it changed the
# next CPU's, and one -j 2 run in five differed).
kbuild "$P/koob.c" "$T/koob.so" || bad "build koob: $(cat "$T/build.out")"
same=yes
for j in 1 2 2 2 2 2; do
	"$IDLELAB" replay -j $j -g "$T/koob.so" --format csv \
		-o "$T/koob$j.csv" "$top_srcdir"/traces/data/*.idl ||
		bad "koob: replay -j $j"
	cmp -s "$T/koob1.csv" "$T/koob$j.csv" || same=no
done
[ $same = yes ] && ok "per-CPU data apart: -j 2 = -j 1 (5 runs)" ||
	bad "per-CPU data: -j 2 differs from -j 1"

# A module parameter is one variable in the plugin, while replay runs
# traces on several threads, each with its own value (kparam takes the
# haltpoll captures' 0 and its default 200000 on the others): -j 2 must
# give what -j 1 gives, and the values must show (state 0 only with the
# default).
kbuild "$P/kparam.c" "$T/kparam.so" || bad "build kparam: $(cat "$T/build.out")"
same=yes
for j in 1 2 2 2 2 2; do	# a race shows in some runs only
	"$IDLELAB" replay -j $j -g "$T/kparam.so" --format csv -o "$T/j$j.csv" \
		"$top_srcdir"/traces/data/*.idl || bad "replay -j $j"
	cmp -s "$T/j1.csv" "$T/j$j.csv" || same=no
done
[ $same = yes ] && ok "module parameters: -j 2 = -j 1 (5 runs)" ||
	bad "module parameters: -j 2 differs from -j 1"
awk -F, '$4 == "entries" && $6 > 0 { split($1, p, "/"); print p[length(p)], $5 }' \
	"$T/j1.csv" | sort -u >"$T/kparam.got"
grep -q "^pipe-haltpoll.idl haltpoll idle$" "$T/kparam.got" &&
	! grep -q "^pipe-haltpoll.idl POLL$" "$T/kparam.got" &&
	grep -q "^pipe-menu.idl POLL$" "$T/kparam.got" &&
	! grep -q "^pipe-menu.idl haltpoll idle$" "$T/kparam.got" &&
	ok "module parameters: the capture's value, else the default" ||
	bad "module parameters: $(tr '\n' ';' <"$T/kparam.got")"

# Containment: a crash and an endless loop lose their own column only;
# a bad index is counted as invalid.
for m in CRASH LOOP BADIDX BADABI; do
	cc_plugin "$T/$m.so" "$P/misbehave.c" -D$m || bad "cc misbehave -D$m"
done
"$IDLELAB" replay -g "menu,$T/CRASH.so,$T/LOOP.so,$T/BADIDX.so" \
	--plugin-timeout 2 --format json -o "$T/c.json" "$TR" 2>"$T/err"
[ $? -eq 1 ] || bad "replay with failing plugins: exit status"
grep -q "plugin $T/CRASH.so: crashed (Segmentation fault)" "$T/err" ||
	bad "crash not reported: $(cat "$T/err")"
grep -q "plugin $T/LOOP.so: no progress for 2 s" "$T/err" ||
	bad "loop not reported: $(cat "$T/err")"
python3 - "$T/c.json" "$T" <<'PY' && ok "containment: other columns intact" || bad "containment"
import json, sys
g = json.load(open(sys.argv[1]))["replay"]["traces"][0]["governors"]
T = sys.argv[2]
assert g["menu"]["selects"] > 0 and "error" not in g["menu"]
assert "crashed" in g[T + "/CRASH.so"]["error"]
assert g[T + "/CRASH.so"]["selects"] is None
assert "no progress" in g[T + "/LOOP.so"]["error"]
assert g[T + "/BADIDX.so"]["invalid_selections"] > 0
PY
# A plugin that writes over memory around it: whatever becomes of its
# own column, the others are those of a run without it.
cc_plugin "$T/SCRIBBLE.so" "$P/misbehave.c" -DSCRIBBLE || bad "cc -DSCRIBBLE"
"$IDLELAB" replay -g "menu,teo,$T/SCRIBBLE.so" --plugin-timeout 2 \
	--format json -o "$T/s.json" "$TR" 2>"$T/err"
rc=$?
"$IDLELAB" replay -g menu,teo --format json -o "$T/s0.json" "$TR" 2>/dev/null
python3 - "$T/s.json" "$T/s0.json" <<'PY' && [ $rc -le 2 ] &&
import json, sys
a = json.load(open(sys.argv[1]))["replay"]["traces"][0]["governors"]
b = json.load(open(sys.argv[2]))["replay"]["traces"][0]["governors"]
assert a["menu"] == b["menu"] and a["teo"] == b["teo"]
PY
	ok "containment: a scribbling plugin (exit $rc) leaves menu and teo as they are" ||
	bad "scribbling plugin: exit $rc, $(head -n 2 "$T/err")"
"$IDLELAB" decide --governor "$T/CRASH.so" <"$T/stream" >/dev/null 2>"$T/err"
# (4 selects: no crash yet) ; a long stream crashes it
{ sed -n '1,4p' "$T/stream"; i=0; while [ $i -lt 120 ]; do
	echo "select 500000 3000000 0"; echo "reflect 1 400000 0 0"; i=$((i + 1)); done; } >"$T/long"
"$IDLELAB" decide --governor "$T/CRASH.so" <"$T/long" >/dev/null 2>"$T/err"
[ $? -eq 1 ] && grep -q "plugin $T/CRASH.so crashed (Segmentation fault)" "$T/err" &&
	ok "decide: a crash is reported" || bad "decide crash: $(cat "$T/err")"

# Refused plugins: exit 2, the plugin named.
expect_err 2 "another ABI" "BADABI.so: built for governor ABI 99" \
	"$IDLELAB" decide --governor "$T/BADABI.so" "$T/stream"
printf 'int not_a_governor;\n' >"$T/none.c"
cc_plugin "$T/none.so" "$T/none.c"
expect_err 2 "no governor in it" "none.so: no idlelab governor in it" \
	"$IDLELAB" replay -g "$T/none.so" "$TR"
expect_err 2 "not a shared object" "cannot load" \
	"$IDLELAB" replay -g "$T/stream.so" "$TR"
printf 'static int x(void) { return y; }\n' >"$T/broken.c"
expect_err 2 "a source that does not compile" "broken.c does not compile" \
	"$IDLELAB" governor build "$T/broken.c" -o "$T/broken.so"
grep -q "error: .y. undeclared" "$T/err" || bad "compiler message not shown"
[ -e "$T/broken.so" ] && bad "a plugin was written for a broken source"
printf '#include <linux/cpuidle.h>\nstatic int unused;\n' >"$T/noreg.c"
expect_err 2 "a source that registers no governor" "registers no governor" \
	"$IDLELAB" governor build "$T/noreg.c" -o "$T/noreg.so"
expect_err 2 "--kernel malformed" "is not MAJOR.MINOR" \
	"$IDLELAB" governor build "$P/kold.c" -o "$T/x.so" --kernel five
expect_err 2 "--kernel before 5.1" "4.0 is older than 5.1" \
	"$IDLELAB" governor build "$P/kold.c" -o "$T/x.so" --kernel 4.0
# no such release, a FIFO as source, a source the compiler would read
# without end (issue 32, item 3): refused or stopped by its limits
expect_err 2 "--kernel 99.99" "99.99 is not a Linux release" \
	"$IDLELAB" governor build "$P/kold.c" -o "$T/x.so" --kernel 99.99
mkfifo "$T/src-fifo.c"
expect_err 2 "a FIFO as source" "not a regular file" \
	timeout 20 "$IDLELAB" governor build "$T/src-fifo.c" -o "$T/x.so"
printf '#include "/dev/zero"\n' > "$T/zero.c"
expect_err 2 "#include /dev/zero: the compiler's memory limit" "does not compile" \
	timeout 60 "$IDLELAB" governor build "$T/zero.c" -o "$T/x.so"

# --cc and $CC are commands with arguments, as for make; a compiler that
# cannot be started is named, and nothing is written
kbuild "$P/kdeepest.c" "$T/cc.so" -v --cc "$CC -DIDL_CC_WORDS=1" &&
	grep -q -- "^$CC -DIDL_CC_WORDS=1 .*-c .*kdeepest.c" "$T/build.out" &&
	ok "--cc with arguments" || bad "--cc with arguments: $(cat "$T/build.out")"
expect_err 2 "--cc that cannot run" \
	"cannot run the compiler $T/no-cc: No such file or directory" \
	"$IDLELAB" governor build "$P/kdeepest.c" -o "$T/x.so" --cc "$T/no-cc"
[ -e "$T/x.so" ] && bad "a plugin was written without a compiler"

# A build killed before it removed its directory in $TMPDIR: the next
# build removes it if its process is gone, and only then; it leaves
# nothing of its own, and touches no other name.
mkdir "$T/tmp"
dead=$(sh -c 'echo $$')
for d in "idlelab-build-$dead.AbC123" "idlelab-build-$$.AbC123" \
	 "idlelab-build-other"; do
	mkdir "$T/tmp/$d"
	: >"$T/tmp/$d/0.o"
	: >"$T/tmp/$d/1.o"
done
TMPDIR=$T/tmp "$IDLELAB" governor build "$P/kdeepest.c" -o "$T/k2.so" \
	>/dev/null 2>&1 || bad "governor build with TMPDIR"
left=$(ls "$T/tmp" | tr '\n' ' ')
if [ "$left" = "idlelab-build-$$.AbC123 idlelab-build-other " ]; then
	ok "a killed build's directory removed, a running one's kept"
else
	bad "build directories left in TMPDIR: $left"
fi
finish
