#!/bin/sh
# Assemble doc/idlelab.1 from the per-command sections in doc/man/.
# Usage: doc/man/assemble.sh VERSION > doc/idlelab.1
# CMD.gen.roff follows CMD.roff: it is generated from the program's own
# data (live.gen.roff: idlelab live --list-bench=roff).
set -eu
dir=$(dirname "$0")
sed "s/@VERSION@/$1/" "$dir/header.roff"
for cmd in states decide governor record import synth info replay sweep live compare report; do
	[ -f "$dir/$cmd.roff" ] && cat "$dir/$cmd.roff"
	[ -f "$dir/$cmd.gen.roff" ] && cat "$dir/$cmd.gen.roff"
done
cat "$dir/footer.roff"
