#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stream tests of `idlelab decide`: every tests/decide/GOV-*.in is run with
# --governor GOV, or with the spec on its first "# governor: SPEC" line,
# and its standard output must equal GOV-*.out (expected outputs derived
# by hand, see the comments in each stream).  New streams are picked up
# from the directory at run time.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
dir="$top_srcdir/tests/decide"
tmpdir

n=0
for in in "$dir"/*.in; do
	[ -e "$in" ] || continue
	name=$(basename "$in" .in)
	exp="$dir/$name.out"
	spec=$(sed -n 's/^#[ 	]*governor:[ 	]*//p' "$in" | head -n 1)
	[ -n "$spec" ] || spec=${name%%-*}
	n=$((n + 1))
	if [ ! -f "$exp" ]; then
		bad "$name: no $name.out"
		continue
	fi
	"$IDLELAB" decide --governor "$spec" "$in" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$name ($spec): exit status $rc"
		cat "$T/err"
	elif ! cmp -s "$exp" "$T/out"; then
		bad "$name ($spec): output differs"
		diff "$exp" "$T/out" | head -n 20
	else
		ok "$name ($spec): $(wc -l <"$exp") decisions"
	fi
done
echo "$n streams, $fails failed"
[ $n -gt 0 ] || exit 99
finish
