#!/bin/sh
# The text importers read a file in chunks, on two threads when it is
# large (traces/import/text-chunk.c), and must give what one sequential read
# gives: the same trace, byte for byte, the same messages and the same
# exit status.  Each input is imported in one chunk on one thread (the
# reference), then in chunks of a few bytes to 64 KiB on one and two
# threads (IDLELAB_IMPORT_CHUNK, IDLELAB_IMPORT_THREADS).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
n=0

# imp OUT IN ARGS...: OUT.idl, and OUT.txt with the status and messages
imp() {
	out=$1
	shift
	rm -f "$out.idl"
	"$IDLELAB" import "$@" -o "$out.idl" --machine vm-haltpoll \
		>"$out.txt" 2>&1
	echo "status $?" >>"$out.txt"
	# the summary's timing, and the output's name, differ
	sed -i -e 's/ in [0-9.]* s ([0-9]* events\/s)//' \
		-e "s#$out\\.idl#OUT#g" "$out.txt"
}

check() {
	n=$((n + 1))
	IDLELAB_IMPORT_THREADS=1 IDLELAB_IMPORT_CHUNK= imp "$T/ref" "$@"
	for v in 1:97 2:97 2:1000 2:65536; do
		IDLELAB_IMPORT_THREADS=${v%:*} IDLELAB_IMPORT_CHUNK=${v#*:} \
			imp "$T/alt" "$@"
		if ! cmp -s "$T/ref.txt" "$T/alt.txt"; then
			bad "$* (threads:chunk $v): messages differ"
			diff "$T/ref.txt" "$T/alt.txt" | head -n 6
		elif [ -e "$T/ref.idl" ] &&
		     ! cmp -s "$T/ref.idl" "$T/alt.idl"; then
			bad "$* (threads:chunk $v): traces differ"
		fi
	done
}

for f in "$top_srcdir"/tests/fixtures/import/*.txt \
	 "$top_srcdir"/tests/bad-input/ftrace-*.txt \
	 "$top_srcdir"/tests/bad-input/report-*.txt; do
	check "$f"
done
check "$top_srcdir/tests/fixtures/import/report-instances.txt" --instance ""
check "$top_srcdir/tests/fixtures/import/report-instances.txt" --instance foo

# Made here: line ends, cut lines, long lines, lost events, NUL bytes,
# more instances than the scan keeps.
X=$top_srcdir/tests/fixtures/import/ftrace-nsec.txt
sed 's/$/\r/' "$X" >"$T/crlf.txt"
check "$T/crlf.txt"
head -c -7 "$X" >"$T/cut.txt"			# a truncated last line
check "$T/cut.txt"
{ head -n 20 "$X"; printf '# %070000d\n' 0; tail -n +21 "$X"; } >"$T/long.txt"
check "$T/long.txt"
{ head -n 20 "$X"; printf '# %065533d\n' 0; tail -n +21 "$X"; } \
	>"$T/long-ok.txt"
check "$T/long-ok.txt"
{ head -n 15 "$X"; echo 'CPU:1 [LOST 12 EVENTS]'; tail -n +16 "$X"; } \
	>"$T/lost.txt"
check "$T/lost.txt"
{ head -n 25 "$X"; printf 'x\0y: CPU:0 [LOST 3 EVENTS]\n'
  tail -n +26 "$X"; } >"$T/nul.txt"
check "$T/nul.txt"
# Instance x, then blocks of 20 others and x: a chunk that starts at a
# block sees x after 16 other names, but x must be counted (it is one of
# the 16 buffers the scan keeps, from the first line on).
awk 'BEGIN {
	print "cpus=1"
	for (i = 0; i < 3000; i++) {
		b = i % 21 == 0 ? "x" : "c" (i % 21)
		printf "%s: <idle>-0 [000] %d.%06d: cpu_idle: state=%s " \
		       "cpu_id=0\n", b, 100 + i / 10000, i * 100 % 1000000,
		       i % 2 ? "-1" : "1"
	}
}' >"$T/many.txt"
check "$T/many.txt"
check "$T/many.txt" --instance c17

# A few MB of the real capture of `make bench`.
if command -v xz >/dev/null 2>&1; then
	xz -dc "$top_srcdir/tests/bench/menu-pingpong.txt.xz" |
		head -n 30000 >"$T/real.txt"
	check "$T/real.txt"
	head -n 29999 "$T/real.txt" >"$T/real-cut.txt"
	head -c 100 "$T/real.txt" | tail -c 60 >>"$T/real-cut.txt"
	check "$T/real-cut.txt"
fi

echo "import-chunks: $n inputs"
finish
