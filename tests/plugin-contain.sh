#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Plugins are run only in processes of their own (issue 32, item 2 and
# the rest of item 3): idlelab never loads one in the process that
# writes results.  A descriptor with a bad tunable table, a constructor
# that exits or waits forever, a plugin that prints on standard output
# or forks, a call into a plugin that does not return under decide, a
# kernel-style __init that crashes or loops under `governor build`: each
# is said (exit 2 when it cannot be loaded, 1 when it fails while
# running) and nothing of it is left running.  Every check here failed
# before that change (crash, hang, exit 0 with nothing, invalid JSON).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip "no C compiler"
P=$top_srcdir/tests/plugins
TR=$top_srcdir/traces/data/pipe-menu.idl
tmpdir
cleanup() {
	pkill -KILL -f "$T/" 2>/dev/null
}
# processes left whose command line names this test's directory
left() { pgrep -f "$T/" | grep -vx "$$" || true; }

for m in STDOUT FORK LOOP CTOR_EXIT CTOR_PAUSE PARAMS_LONG PARAMS_BADPTR \
	 ESCNAME; do
	"$CC" -shared -fPIC -I"$top_srcdir/include" -o "$T/$m.so" \
		"$P/misbehave.c" -D$m || bad "cc misbehave -D$m"
done

# A plugin that cannot be described is refused, in every command that
# names it, and idlelab itself does not crash.
refused() {	# PATTERN WHAT PLUGIN
	expect_err 2 "governor list: $2" "$1" "$IDLELAB" governor list "$3"
	expect_err 2 "replay: $2" "$1" "$IDLELAB" replay -g "menu,$3" "$TR"
}
refused "more than 8 tunables, or params\[\] does not end" \
	"params without an end" "$T/PARAMS_LONG.so"
refused "PARAMS_BADPTR.so: crashed while loading (Segmentation fault)" \
	"a tunable name that is a bad pointer" "$T/PARAMS_BADPTR.so"
refused "CTOR_EXIT.so: the process loading it ended without" \
	"exit(0) in a constructor" "$T/CTOR_EXIT.so"
[ ! -s "$T/out" ] || bad "output from a command that failed"
# a plugin's texts are shown without their control characters
"$IDLELAB" governor list "$T/ESCNAME.so" >"$T/out" 2>&1
if [ $? -eq 0 ] && ! grep -q "$(printf '\033')" "$T/out" &&
   grep -q 'governor "mis?\[31mbehave", tests/plugins/?\]0;title?misbehave.c' "$T/out" &&
   grep -q 'help?\[2J' "$T/out"; then
	ok "governor list: a plugin's name, origin and help cleaned"
else
	bad "governor list: raw text: $(od -c "$T/out" | head -5)"
fi

# A constructor that never returns: 10 s, then refused (two commands
# side by side, to wait once).
timeout 60 "$IDLELAB" governor list "$T/CTOR_PAUSE.so" >/dev/null \
	2>"$T/err-list" &
a=$!
timeout 60 "$IDLELAB" decide -g "$T/CTOR_PAUSE.so" </dev/null >/dev/null \
	2>"$T/err-decide" &
b=$!
wait $a; ra=$?
wait $b; rb=$?
for x in "list $ra" "decide $rb"; do
	set -- $x
	[ "$2" -eq 2 ] && grep -q "did not end within 10 s" "$T/err-$1" &&
		ok "$1: a constructor that waits forever" ||
		bad "$1: a constructor that waits forever: exit $2, $(cat "$T/err-$1")"
done
[ -z "$(left)" ] || bad "constructor that waits: processes left: $(left)"

# Standard output stays the result stream.
"$IDLELAB" replay -g "menu,$T/STDOUT.so" --format json "$TR" \
	>"$T/r.json" 2>"$T/err"
rc=$?
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/r.json" \
	2>/dev/null && [ $rc -eq 0 ] && grep -q "garbage from the plugin" "$T/err" &&
	ok "replay --format json: a plugin's printf goes to stderr" ||
	bad "replay json with a printing plugin: exit $rc, $(head -c 200 "$T/r.json")"
{ printf 'hz 250\nstate 0 POLL 0 0 polling\nstate 1 C1 2000 2000 -\n'
  printf 'state 2 C6 100000 600000 -\n'
  i=0; while [ $i -lt 120 ]; do
	echo "select 500000 3000000 0"; echo "reflect 1 400000 0 0"
	i=$((i + 1)); done; } >"$T/long"
"$IDLELAB" decide -g "$T/STDOUT.so" <"$T/long" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ "$(sort -u "$T/out")" = "1 1" ] &&
	[ "$(wc -l <"$T/out")" -eq 120 ] &&
	ok "decide: only its answers on standard output" ||
	bad "decide with a printing plugin: exit $rc, $(sort "$T/out" | uniq -c)"

# What a plugin forks ends with its column; the column is not lost.
"$IDLELAB" replay -g "menu,$T/FORK.so" --format json -o "$T/f.json" \
	"$TR" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && ! grep -q "no progress" "$T/err" && [ -z "$(left)" ] &&
	ok "replay: a forking plugin's column kept, its process ended" ||
	bad "forking plugin: exit $rc, left: $(left), $(cat "$T/err")"
"$IDLELAB" decide -g "$T/FORK.so" <"$T/long" >/dev/null 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && [ -z "$(left)" ] && ok "decide: a forking plugin's process ended" ||
	bad "decide, forking plugin: exit $rc, left: $(left)"

# decide: a call that does not return is stopped
expect_err 1 "decide --plugin-timeout: a select that loops" \
	"LOOP.so: a call did not return within 1 s" \
	timeout 60 "$IDLELAB" decide -g "$T/LOOP.so" --plugin-timeout 1 \
	-- "$T/long"

# governor build: the plugin's __init runs in a limited child
for kind in crash loop; do
	cat >"$T/kinit-$kind.c" <<EOF
#include <linux/cpuidle.h>
#include <linux/module.h>

static int kinit_select(struct cpuidle_driver *drv,
			struct cpuidle_device *dev, bool *stop_tick)
{
	return 0;
}

static struct cpuidle_governor kinit_governor = {
	.name = "kinit", .rating = 1, .select = kinit_select,
};

static int __init init_kinit(void)
{
	static int *volatile null;

	$( [ $kind = crash ] && echo '*null = 1;' || echo 'for (;;) ;' )
	return cpuidle_register_governor(&kinit_governor);
}

postcore_initcall(init_kinit);
EOF
done
expect_err 2 "governor build: an __init that crashes" \
	"kinit-crash.c: crashed while loading (Segmentation fault)" \
	"$IDLELAB" governor build "$T/kinit-crash.c" -o "$T/kinit-crash.so"
expect_err 2 "governor build: an __init that loops" "did not end within 10 s" \
	timeout 60 "$IDLELAB" governor build "$T/kinit-loop.c" \
	-o "$T/kinit-loop.so"
[ ! -e "$T/kinit-crash.so" ] && [ ! -e "$T/kinit-loop.so" ] ||
	bad "governor build wrote a plugin whose __init failed"
[ -z "$(left)" ] || bad "processes left: $(left)"
finish
