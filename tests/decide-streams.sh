#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Stream tests of `idlelab decide`: every tests/decide/GOV-*.in is run with
# --governor GOV, or with the spec on its first "# governor: SPEC" line,
# and its standard output must equal GOV-*.out (expected outputs derived
# by hand, see the comments in each stream).  New streams are picked up
# from the directory at run time.
set -u

: "${IDLELAB:?}" "${top_srcdir:?}"
dir="$top_srcdir/tests/decide"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

n=0
fail=0
for in in "$dir"/*.in; do
	[ -e "$in" ] || continue
	name=$(basename "$in" .in)
	exp="$dir/$name.out"
	spec=$(sed -n 's/^#[ 	]*governor:[ 	]*//p' "$in" | head -n 1)
	[ -n "$spec" ] || spec=${name%%-*}
	n=$((n + 1))
	if [ ! -f "$exp" ]; then
		echo "FAIL: $name: no $name.out"
		fail=$((fail + 1))
		continue
	fi
	"$IDLELAB" decide --governor "$spec" "$in" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL: $name ($spec): exit status $rc"
		cat "$tmp/err"
		fail=$((fail + 1))
	elif ! cmp -s "$exp" "$tmp/out"; then
		echo "FAIL: $name ($spec): output differs"
		diff "$exp" "$tmp/out" | head -n 20
		fail=$((fail + 1))
	else
		echo "ok: $name ($spec): $(wc -l <"$exp") decisions"
	fi
done
echo "$n streams, $fail failed"
[ $n -gt 0 ] || exit 99
[ $fail -eq 0 ]
