#!/bin/sh
# README, man page and behaviour stay in step: the man page is the
# assembly of doc/man/*.roff (live.gen.roff being what the program says
# about its benchmarks), and every command that `idlelab help` lists
# has --help, a man section and a line in README.md.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
version=$("$IDLELAB" --version | sed 's/^idlelab //; s/ (git .*//')
if ! "$top_srcdir/doc/man/assemble.sh" "$version" | cmp -s - "$top_srcdir/doc/idlelab.1"; then
	bad "doc/idlelab.1 is not the assembly of doc/man/*.roff" \
		"(run doc/man/assemble.sh $version > doc/idlelab.1)"
fi
# the man page's list of benchmarks is generated from their definitions
if ! "$IDLELAB" live --list-bench=roff | cmp -s - "$top_srcdir/doc/man/live.gen.roff"; then
	bad "doc/man/live.gen.roff is not the benchmark list" \
		"(run idlelab live --list-bench=roff > doc/man/live.gen.roff)"
fi
cmds=$("$IDLELAB" help | sed -n 's/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ] || fatal "idlelab help lists no command"
for c in $cmds; do
	if ! "$IDLELAB" "$c" --help >/dev/null 2>&1; then
		bad "idlelab $c --help does not exit 0"
	fi
	"$IDLELAB" "$c" --help | grep -q "usage: idlelab $c" ||
		bad "idlelab $c --help has no usage line"
	grep -q "^\.SS \"idlelab $c\"" "$top_srcdir/doc/idlelab.1" ||
		bad "no man section for $c"
	grep -q "idlelab $c\`" "$top_srcdir/README.md" ||
		bad "README.md does not list $c"
	echo "ok: $c"
done
# doc/plugins.md shows tests/plugins/deepest.c, which the tests build
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' \
	"$top_srcdir/doc/plugins.md" | cmp -s - "$top_srcdir/tests/plugins/deepest.c" ||
	bad "doc/plugins.md's example is not tests/plugins/deepest.c"
# the lab's captures trace every event that record enables
# (traces/record/record.c), which is what import reads (a capture without the
# dev_pm_qos ones agreed on 71.65% where the workload set CPU 0's resume
# latency)
events=$(sed -n '/rec_events\[\]\[2\] = {/,/^};/p' "$top_srcdir/traces/record/record.c" |
	grep -o '{ "[a-z]*", "[a-z_]*" }' | sed 's/{ "\(.*\)", "\(.*\)" }/\1\/\2/')
[ "$(echo "$events" | wc -l)" -ge 20 ] ||
	bad "record.c's event list not found ($events)"
for e in $events; do
	grep -q "[[:space:]\"]$e\([[:space:]\"]\|\$\)" "$top_srcdir/lab/lab.sh" ||
		bad "lab/lab.sh does not trace $e"
done
"$IDLELAB" nosuchcommand >/dev/null 2>&1
[ $? -eq 2 ] || bad "an unknown command must exit 2"
finish
