#!/bin/bash
# Nothing is lost: every command that writes a file with -o (or --save),
# started over an existing target and then failing or killed with
# SIGKILL at a random moment, leaves the target as it was or, if the
# kill came after the rename, a complete new file; never a part of one.
# The next run that writes there completes and leaves no temporary file
# of the killed run behind.  (live -o: tests/live-safety.sh; record -o:
# tests/live-soak.sh; a full file system: tests/atomic-write.sh.)
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
runs=0
KILLS=${IDLELAB_NOTHING_LOST_KILLS:-4}
D=$top_srcdir/traces/data

echo ORIGINAL >"$T/original"

# inputs large enough to be killed while writing
"$IDLELAB" synth -o "$T/big.idl" -m skx -c 4 -d 20 >/dev/null 2>&1 ||
	fatal "synth of the input"
awk 'BEGIN { print "# tracer: nop"; for (i = 0; i < 400000; i++) {
	t = 100000000 + 37 * i; c = i % 2
	printf "          <idle>-0       [%03d] d..1.  %d.%06d: cpu_idle: " \
	       "state=%s cpu_id=%d\n", c, t / 1000000, t % 1000000,
	       (i % 4 < 2) ? "1" : "4294967295", c } }' >"$T/big.txt"
"$IDLELAB" replay --format json -o "$T/r1.json" "$D/pipe-menu.idl" 2>/dev/null
"$IDLELAB" sweep -g 'menu:decay=4|8' -o "$T/part.json" --shard 1/2 \
	"$D/pipe-menu.idl" >/dev/null 2>&1
"$IDLELAB" sweep -g 'menu:decay=4|8' -o "$T/part2.json" --shard 2/2 \
	"$D/pipe-menu.idl" >/dev/null 2>&1

# is FILE a complete output of KIND?
complete() {
	case $2 in
	trace) "$IDLELAB" info "$1" >/dev/null 2>&1 ;;
	table) "$IDLELAB" states --file "$1" >/dev/null 2>&1 ;;
	json) python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" ;;
	html) tail -c 200 "$1" | grep -q '</html>' ;;
	text) [ -s "$1" ] && tail -c 1 "$1" | od -c | grep -q '\\n' ;;
	so) python3 -c 'import sys; d=open(sys.argv[1],"rb").read(4); sys.exit(d != b"\x7fELF")' "$1" ;;
	esac
}

# writer NAME KIND CMD... ({out} is the target)
writer() {
	local name=$1 kind=$2 k delay rc left
	local -a cmd
	shift 2
	for ((k = 1; k <= KILLS; k++)); do
		cmd=("${@//\{out\}/$T/out/$name}")
		rm -rf "$T/out"
		mkdir "$T/out"
		echo ORIGINAL >"$T/out/$name"
		delay="0.$(printf '%03d' $(((RANDOM % 300) + k * 50)))"
		"$IDLELAB" "${cmd[@]}" >/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -9 $pid 2>/dev/null
		wait $pid 2>/dev/null
		rc=$?
		runs=$((runs + 1))
		if ! cmp -s "$T/out/$name" "$T/original" &&
		   ! complete "$T/out/$name" "$kind"; then
			bad "$name: killed after $delay s (status $rc): the target is neither the old file nor a complete new one"
		fi
		# the next run completes and removes the killed run's temporaries
		"$IDLELAB" "${cmd[@]}" >/dev/null 2>"$T/err" ||
			bad "$name: the next run: $(head -n 1 "$T/err")"
		complete "$T/out/$name" "$kind" ||
			bad "$name: the next run's output is not complete"
		left=$(ls -A "$T/out" | grep -vx "$name")
		[ -z "$left" ] || bad "$name: left behind: $left"
	done
	# a run that fails (its input files missing) leaves the target
	local -a failing=()
	local e missing=0
	for e in "${cmd[@]}"; do
		if [ -f "$e" ] && [ "$e" != "$T/out/$name" ]; then
			failing+=("$T/missing")
			missing=1
		else
			failing+=("$e")
		fi
	done
	if [ $missing = 1 ]; then
		echo ORIGINAL >"$T/out/$name"
		"$IDLELAB" "${failing[@]}" >/dev/null 2>&1 &&
			bad "$name: a run without its input succeeded"
		cmp -s "$T/out/$name" "$T/original" ||
			bad "$name: a failed run changed the target"
	fi
	ok "$name: $KILLS kills"
}

writer trace.idl trace synth -o '{out}' -m skx -c 4 -d 20
writer import.idl trace import "$T/big.txt" -o '{out}' -m skx -q
writer replay.json json replay -g menu,teo --format json -o '{out}' "$T/big.idl"
writer replay.txt text replay -g menu -o '{out}' "$T/big.idl"
writer sweep.json json sweep -g 'menu:decay=2..16/2' -o '{out}' "$T/big.idl"
writer merged.json json merge -o '{out}' "$T/part.json" "$T/part2.json"
writer report.html html report --no-plots -o '{out}' "$T/r1.json"
writer skx.table table states --machine skx --save '{out}'
if command -v cc >/dev/null 2>&1; then
	writer deepest.so so governor build \
		"$top_srcdir/tests/plugins/kdeepest.c" -o '{out}'
fi
echo "nothing-lost: $runs killed runs"
finish
