#!/usr/bin/env bash
# Memory independent of trace length: a synthetic trace of >= 5 M idle
# periods (~220 MB, made here, not checked in) is streamed through
# `idlelab info` and `idlelab replay`, and a ~120 MB generated ftrace text
# through `idlelab import`, each under a virtual-memory limit (48 MiB)
# far below the file's size.  ASan builds reserve terabytes of address
# space, so they SKIP.
set -eu
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
LIMIT_KB=${BOUNDED_MEMORY_LIMIT_KB:-49152}

if [ -n "${IDLELAB_SANITIZED:-}" ] || grep -q __asan_init "$IDLELAB"; then
	skip "$IDLELAB is built with AddressSanitizer"
fi
tmpdir
# about 800 MB would be needed in the worst case; check the space
avail=$(df -Pk "$T" | awk 'NR == 2 { print $4 }')
[ "$avail" -ge 800000 ] || skip "less than 800 MB free in $T"

"$IDLELAB" synth -o "$T/big.trace" -m skx -c 4 -d 60 \
	-p poisson:25000+busy:2 >"$T/synth.out" 2>&1 ||
	fatal "synth: $(cat "$T/synth.out")"
made=$(sed -n 's/.*: \([0-9]*\) idle periods.*/\1/p' "$T/synth.out")
size_kb=$(($(stat -c %s "$T/big.trace") / 1024))
echo "trace: $made periods, $size_kb KiB; limit $LIMIT_KB KiB"
[ "$made" -ge 5000000 ] || fatal "only $made periods"
[ "$size_kb" -gt $((LIMIT_KB * 4)) ] || fatal "trace smaller than 4x limit"

# info must read every period the writer wrote
(ulimit -v "$LIMIT_KB"; "$IDLELAB" info "$T/big.trace") \
	>"$T/info.out" 2>&1 || fatal "info: $(tail -3 "$T/info.out")"
read_n=$(sed -n 's/^periods: *\([0-9]*\) read.*/\1/p' "$T/info.out")
[ "$read_n" = "$made" ] || fatal "info read $read_n of $made periods"

(ulimit -v "$LIMIT_KB"; "$IDLELAB" replay -g menu,teo "$T/big.trace") \
	>"$T/replay.out" 2>&1 || fatal "replay: $(tail -3 "$T/replay.out")"
grep -q menu "$T/replay.out" || fatal "replay printed no menu row"

# import: 1.5 M cpu_idle events on 4 CPUs (entries and exits, 7 us apart)
awk 'BEGIN {
	printf "# tracer: nop\n#\n"
	t = 100000000
	for (i = 0; i < 1500000; i++) {
		c = i % 4; t += 7
		printf "          <idle>-0       [%03d] d..1.  %d.%06d: " \
		       "cpu_idle: state=%s cpu_id=%d\n", c, t / 1000000,
		       t % 1000000, (i % 8 < 4) ? "1" : "4294967295", c
	}
}' >"$T/big.txt"
echo "ftrace text: $(($(stat -c %s "$T/big.txt") / 1024)) KiB"
(ulimit -v "$LIMIT_KB"; "$IDLELAB" import "$T/big.txt" -o "$T/imp.trace" \
	-m skx -q) >"$T/import.out" 2>&1 ||
	fatal "import: $(tail -3 "$T/import.out")"
# every CPU enters 187500 times and exits each time: one period each,
# except that the first exit has its entry (4 x 187500 periods)
"$IDLELAB" info "$T/imp.trace" >"$T/info2.out" 2>&1 || fatal "info imp"
read_n=$(sed -n 's/^periods: *\([0-9]*\) read.*/\1/p' "$T/info2.out")
[ "$read_n" = 750000 ] || fatal "import made $read_n periods, not 750000"
# a 64 MiB comment line between two states of a table file: under the
# limit, an error (it used to read as the end of the file: a one-state
# table, silently); now refused before reading: a table file is at most
# 1 MiB (and a line at most 64 KiB: bad-input @longline-table)
{
	printf 'name x\nstate 0 POLL 0 0 flags=polling\n# '
	head -c $((64 << 20)) /dev/zero | tr '\0' x
	printf '\nstate 1 C1 2 2\n'
} >"$T/huge.table"
st=0
(ulimit -v "$LIMIT_KB"; "$IDLELAB" states --file "$T/huge.table") \
	>"$T/tbl.out" 2>&1 || st=$?
[ $st = 2 ] && grep -q "huge.table: 67108920 bytes, too large for a C-state table" \
	"$T/tbl.out" || fatal "table with a huge line: status $st: $(head -n1 "$T/tbl.out")"

# a 64 MiB comment line in the middle of an ftrace text: under the limit
# the import must fail with an error, not read it as the end of the
# input (getline()'s ENOMEM used to end the input silently, status 0).
# Lines are capped at 64 KiB: a longer one is bad input, status 2.
L='          <idle>-0       [000] d..1.  100.%06d: cpu_idle: state=%s cpu_id=0\n'
{
	printf '# tracer: nop\n'
	printf "$L" 100 1 200 4294967295
	printf '# '
	head -c $((64 << 20)) /dev/zero | tr '\0' x
	printf '\n'
	printf "$L" 300 1 400 4294967295
} >"$T/hugeline.txt"
st=0
(ulimit -v "$LIMIT_KB"; "$IDLELAB" import "$T/hugeline.txt" \
	-o "$T/hl.trace" -m skx -q) >"$T/hl.out" 2>&1 || st=$?
[ $st = 2 ] && grep -q "hugeline.txt:4: line too long" "$T/hl.out" ||
	fatal "huge line under the limit: status $st: $(head -n1 "$T/hl.out")"
[ ! -e "$T/hl.trace" ] || fatal "huge line: $T/hl.trace left behind"
echo "bounded-memory: ok"
