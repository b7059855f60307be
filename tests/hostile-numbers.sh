#!/bin/bash
# Every numeric option of every command, fed the same hostile values.
# The options with a plain number (metavar N, SECS, NS, S, US) are found
# in each command's --help, so that a new one is tested without being
# listed here; numbers inside compound values (CPU:FROM-TO, I/N, a
# governor's or a benchmark's parameters, pattern terms, state indices,
# CPU lists, X.Y) are listed below.
#
# A value that is never valid (NaN, infinities, out of every range,
# hexadecimal, trailing garbage, empty) must be refused with exit 2 and
# a first line on standard error that names the command and the option
# or the value; a value that may be valid somewhere (-0, 0, -1, 2^63)
# must end with 0, 1 or 2, never a signal or a hang.  Each command runs
# where an accepted value cannot touch the host: a missing input file
# after the options, a sysfs fixture for live.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
runs=0
D=$top_srcdir/traces/data/pipe-menu.idl
NO=$T/no/such

# never valid
BAD='nan
-nan
NAN
inf
-inf
Infinity
1e309
-1e309
1e999999
0x10
0x1p3
5abc
1e

 7
18446744073709551616
-18446744073709551617'
# valid in some ranges
MAYBE='-0
0
-1
9223372036854775808
1'

cp -r "$top_srcdir/tests/fixtures/sysfs-live/before" "$T/sys"
export IDLELAB_SYSFS_ROOT="$T/sys" IDLELAB_RUN_DIR="$T/run" \
	IDLELAB_POWERCAP_ROOT="$T/none"

# try CMD OPTION-WORDS... -- CONTEXT...: each value for V in the words
try() {
	local cmd=$1 kind v
	local -a words=() ctx
	shift
	while [ "$1" != -- ]; do
		words+=("$1")
		shift
	done
	shift
	ctx=("$@")
	for kind in bad maybe; do
		if [ $kind = bad ]; then list=$BAD; else list=$MAYBE; fi
		while IFS= read -r v; do
			one "$cmd" "$kind" "$v"
		done <<<"$list"
	done
}

# one CMD KIND VALUE, with words[] and ctx[] of try()
one() {
	local cmd=$1 kind=$2 v=$3 rc first opt w pre
	local -a args=()

	# what the message may name: the option, or the parameter or
	# term that holds the value
	opt=
	for w in "${words[@]}"; do
		if [[ "$w" == *V* ]]; then
			pre=${w%%V*}
			[ -n "$pre" ] && opt=$(printf '%s' "$pre" |
				grep -o '[A-Za-z0-9_-]*[=:]*$' | tr -d '=:')
		elif [ -z "$opt" ] || [[ "$w" == -* ]]; then
			opt=${w%%=*}
		fi
		args+=("${w//V/$v}")
	done
	timeout 20 "$IDLELAB" "$cmd" "${args[@]}" "${ctx[@]}" </dev/null \
		>"$T/out" 2>"$T/err"
	rc=$?
	runs=$((runs + 1))
	first=$(head -n 1 "$T/err")
	if [ $rc -ge 124 ]; then
		bad "$cmd ${args[*]} [$v]: exit $rc (hang or signal)"
	elif [ $kind = bad ] && [ $rc != 2 ]; then
		bad "$cmd ${args[*]} [$v]: exit $rc, accepted: $first"
	elif [ $kind = bad ] && [[ "$first" != "idlelab $cmd"* ]]; then
		bad "$cmd ${args[*]} [$v]: message '$first'"
	elif [ $kind = bad ] && [[ "$first" != *"$opt"* ]] &&
	     { [ -z "${v// /}" ] || [[ "$first" != *"$v"* ]]; }; then
		bad "$cmd ${args[*]} [$v]: names neither option nor value: $first"
	fi
}

# the plain numeric options of each command, from its --help
simple() {
	"$IDLELAB" "$1" --help | sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z-]*\) \(N\|SECS\|NS\|S\|US\) .*/\2/p'
}

context() {
	case $1 in
	states) echo "--file $NO" ;;
	decide) echo "-g menu $NO" ;;
	record) echo "-o $NO/r.idl" ;;
	import) echo "-o $T/i.idl $NO.txt" ;;
	synth) echo "-m skx -o $NO/s.idl" ;;
	replay) echo "$NO.idl" ;;
	sweep) echo "-o $T/s.json $NO.idl" ;;
	live) echo "--governors nosuchgov -o $T/live" ;;
	esac
}

for cmd in states decide governor record import synth info replay sweep \
	   merge live compare report; do
	for o in $(simple $cmd); do
		# record needs root; without, its refusal of root comes first
		[ $cmd = record ] && [ "$(id -u)" != 0 ] && continue
		try $cmd "$o" V -- $(context $cmd)
		try $cmd "$o=V" -- $(context $cmd)
	done
done

# numbers inside compound values
try replay --explain V -- -o "$T/r.txt" "$D"
try replay --explain 0:V-10 -- -o "$T/r.txt" "$D"
try replay --explain 0:1-V -- -o "$T/r.txt" "$D"
try replay --synthetic V -- -o "$T/r.txt"
try replay --synthetic 100:V -- -o "$T/r.txt"
try replay --disable V -- -g menu -o "$T/r.txt" "$D"
try replay -g menu:decay=V -- -o "$T/r.txt" "$D"
try replay -g menu:intervals=V -- -o "$T/r.txt" "$D"
try replay -g teo:pulse=V -- -o "$T/r.txt" "$D"
try replay -g haltpoll:guest_halt_poll_ns=V -- -o "$T/r.txt" "$D"
try decide -g haltpoll:guest_halt_poll_ns=V --
try decide -g menu:resolution=V --
try import -g menu:decay=V -- -o "$T/i.idl" \
	"$top_srcdir/tests/fixtures/import/ftrace-nsec.txt"
try sweep --shard V/2 -- -o "$T/s.json" "$D"
try sweep --shard 1/V -- -o "$T/s.json" "$D"
try sweep -g 'menu:decay=V' -- -o "$T/s.json" "$D"
try sweep -g 'menu:decay=V..8/2' -- -o "$T/s.json" "$D"
try sweep -g 'menu:decay=2..V/2' -- -o "$T/s.json" "$D"
try sweep -g 'menu:decay=2..8/V' -- -o "$T/s.json" "$D"
try sweep -g 'menu:decay=4|V' -- -o "$T/s.json" "$D"
try synth -p periodic:V -- -m skx -o "$T/s.idl" -d 0.1
try synth -p poisson:V -- -m skx -o "$T/s.idl" -d 0.1
try synth -p bursty:V,5,100 -- -m skx -o "$T/s.idl" -d 0.1
try synth -p periodic+busy:V -- -m skx -o "$T/s.idl" -d 0.1
try governor build --kernel V -- "$NO.c" -o "$T/g.so"
L="--governors menu --runs 1 -d 0.1 -w 0 -q --overwrite -o $T/live"
try live -b timer:rates=V -- $L
try live -b pingpong:gap=V -- $L
try live -b wakeup:workers=V -- $L
try live --disable-state V -- $L
if [ "$(id -u)" = 0 ]; then
	try record --cpus V -- -o "$NO/r.idl"
fi

# lists with an empty item are usage errors (2), found before the
# machine is looked at (issue 32, item 9)
for a in "-b=" "-b=timer,,pingpong" "-b=timer," "--disable-state=0,,1" \
	 "--disable-state=" "--disable-state=,1"; do
	# shellcheck disable=SC2086
	"$IDLELAB" live "${a%%=*}" "${a#*=}" $L >/dev/null 2>"$T/err"
	rc=$?
	runs=$((runs + 1))
	if [ $rc != 2 ] || ! grep -q 'empty' "$T/err"; then
		bad "live $a: exit $rc, want 2 ($(head -1 "$T/err"))"
	fi
done

echo "hostile-numbers: $runs runs"
finish
