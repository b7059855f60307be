#!/bin/sh
# Assemble doc/idlelab.1 from the per-command sections in doc/man/.
# Usage: doc/man/assemble.sh VERSION > doc/idlelab.1
set -eu
dir=$(dirname "$0")
sed "s/@VERSION@/$1/" "$dir/header.roff"
for cmd in states decide record import synth info replay live compare report; do
	[ -f "$dir/$cmd.roff" ] && cat "$dir/$cmd.roff"
done
cat "$dir/footer.roff"
