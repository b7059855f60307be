#!/bin/sh
# README, man page and behaviour stay in step: the man page is the
# assembly of doc/man/*.roff (live.gen.roff being what the program says
# about its benchmarks), and every command that `idlelab help` lists
# has --help, a man section and a line in README.md.
set -u
fail=0
version=$("$IDLELAB" --version | sed 's/^idlelab //; s/ (git .*//')
if ! "$top_srcdir/doc/man/assemble.sh" "$version" | cmp -s - "$top_srcdir/doc/idlelab.1"; then
	echo "FAIL: doc/idlelab.1 is not the assembly of doc/man/*.roff" \
		"(run doc/man/assemble.sh $version > doc/idlelab.1)"
	fail=1
fi
# the man page's list of benchmarks is generated from their definitions
if ! "$IDLELAB" live --list-bench=roff | cmp -s - "$top_srcdir/doc/man/live.gen.roff"; then
	echo "FAIL: doc/man/live.gen.roff is not the benchmark list" \
		"(run idlelab live --list-bench=roff > doc/man/live.gen.roff)"
	fail=1
fi
cmds=$("$IDLELAB" help | sed -n 's/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ] || { echo "FAIL: idlelab help lists no command"; exit 1; }
for c in $cmds; do
	if ! "$IDLELAB" "$c" --help >/dev/null 2>&1; then
		echo "FAIL: idlelab $c --help does not exit 0"; fail=1
	fi
	"$IDLELAB" "$c" --help | grep -q "usage: idlelab $c" ||
		{ echo "FAIL: idlelab $c --help has no usage line"; fail=1; }
	grep -q "^\.SS \"idlelab $c\"" "$top_srcdir/doc/idlelab.1" ||
		{ echo "FAIL: no man section for $c"; fail=1; }
	grep -q "idlelab $c\`" "$top_srcdir/README.md" ||
		{ echo "FAIL: README.md does not list $c"; fail=1; }
	echo "ok: $c"
done
# doc/plugins.md shows tests/plugins/deepest.c, which the tests build
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' \
	"$top_srcdir/doc/plugins.md" | cmp -s - "$top_srcdir/tests/plugins/deepest.c" ||
	{ echo "FAIL: doc/plugins.md's example is not tests/plugins/deepest.c"; fail=1; }
# the lab's captures trace every event that record enables
# (traces/record/record.c), which is what import reads (a capture without the
# dev_pm_qos ones agreed on 71.65% where the workload set CPU 0's resume
# latency)
events=$(sed -n '/rec_events\[\]\[2\] = {/,/^};/p' "$top_srcdir/traces/record/record.c" |
	grep -o '{ "[a-z]*", "[a-z_]*" }' | sed 's/{ "\(.*\)", "\(.*\)" }/\1\/\2/')
[ "$(echo "$events" | wc -l)" -ge 20 ] ||
	{ echo "FAIL: record.c's event list not found ($events)"; fail=1; }
for e in $events; do
	grep -q "[[:space:]\"]$e\([[:space:]\"]\|\$\)" "$top_srcdir/lab/lab.sh" ||
		{ echo "FAIL: lab/lab.sh does not trace $e"; fail=1; }
done
"$IDLELAB" nosuchcommand >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: an unknown command must exit 2"; fail=1; }
exit $fail
