#!/usr/bin/env bash
# Where an output goes (issue 32, item 1; doc/hardening.md): only a
# regular file is ever replaced.  A FIFO or a character device is written
# into (once the output is complete), a symlink's file is replaced and the
# link kept, and a directory, a block device, a socket or a symlink to
# nothing is refused with exit 2 before anything runs.  An output that is
# also an input (or another output) is refused with exit 2 and the input
# is left as it was.  The device nodes are the test's own (mknod, root),
# never the host's.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir

kind() { stat -c %F "$1"; }

synth() { "$IDLELAB" synth -m vm-haltpoll -d 0.05 --seed 3 "$@"; }
synth -o "$T/ref.idl" >/dev/null || fatal "synth"
"$IDLELAB" replay --format json -o "$T/ref.json" "$T/ref.idl" ||
	fatal "replay"
strip_time() { grep -v '"generated\|"created\|"date\|"time"' "$1"; }

# a FIFO: the reader gets exactly the file's bytes, the FIFO stays one
mkfifo "$T/fifo"
# the reader gives up when nothing comes (the FIFO was replaced)
timeout 20 cat "$T/fifo" >"$T/fifo.idl" &
reader=$!
expect 0 "synth -o FIFO" synth -o "$T/fifo"
wait $reader
cmp -s "$T/fifo.idl" "$T/ref.idl" && ok "FIFO: the whole trace" ||
	bad "FIFO: $(wc -c <"$T/fifo.idl") bytes, want $(wc -c <"$T/ref.idl")"
[ "$(kind "$T/fifo")" = fifo ] && ok "FIFO kept" || bad "FIFO replaced"
timeout 20 cat "$T/fifo" >"$T/fifo.json" &
reader=$!
expect 0 "replay -o FIFO (JSON)" "$IDLELAB" replay --format json \
	-o "$T/fifo" "$T/ref.idl"
wait $reader
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
	"$T/fifo.json" && ok "FIFO: valid JSON" || bad "FIFO: JSON"

# standard output on a pipe, through a link as /dev/stdout is (the test's
# own: an older build would replace the host's): the trace and nothing
# else, the summary on stderr
ln -s /proc/self/fd/1 "$T/stdout"
synth -o "$T/stdout" 2>"$T/err" | cat >"$T/pipe.idl"
cmp -s "$T/pipe.idl" "$T/ref.idl" && grep -q 'idle periods' "$T/err" &&
	ok "-o STDOUT on a pipe: the trace, the summary on stderr" ||
	bad "-o STDOUT on a pipe: $(wc -c <"$T/pipe.idl") bytes, want $(wc -c <"$T/ref.idl")"
[ -L "$T/stdout" ] && ok "the stdout link kept" || bad "stdout link replaced"

# a symlink to a regular file: the file is replaced, the link stays
echo old >"$T/target.idl"
ln -s target.idl "$T/link.idl"
expect 0 "synth -o SYMLINK" synth -o "$T/link.idl"
[ -L "$T/link.idl" ] && cmp -s "$T/target.idl" "$T/ref.idl" &&
	ok "symlink kept, its file written" || bad "symlink: $(ls -l "$T")"

# refused before anything runs, nothing touched
mkdir "$T/dir"
expect 2 "synth -o DIR" synth -o "$T/dir"
grep -q 'is a directory' "$T/err" || bad "DIR: $(cat "$T/err")"
ln -s nothing "$T/dangling"
expect 2 "synth -o dangling symlink" synth -o "$T/dangling"
[ -L "$T/dangling" ] && [ ! -e "$T/nothing" ] ||
	bad "dangling symlink touched"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$T/sock"
expect 2 "replay -o SOCKET" "$IDLELAB" replay -o "$T/sock" "$T/ref.idl"
[ "$(kind "$T/sock")" = socket ] && ok "socket kept" || bad "socket replaced"

# the test's own device nodes (root)
if [ "$(id -u)" = 0 ] && mknod "$T/null" c 1 3 2>/dev/null &&
   mknod "$T/blk" b 7 0 2>/dev/null; then
	for w in "synth -m vm-haltpoll -d 0.01 -o $T/null" \
		 "replay -o $T/null $T/ref.idl" \
		 "replay --format json -o $T/null $T/ref.idl" \
		 "import -q --states $top_srcdir/tests/fixtures/tables/haltpoll.table -o $T/null $top_srcdir/tests/fixtures/import/haltpoll-live.txt" \
		 "states --file $top_srcdir/tests/fixtures/tables/full.table --save $T/null" \
		 "report -o $T/null $T/ref.json"; do
		# shellcheck disable=SC2086
		expect 0 "${w%% *} into a character device" "$IDLELAB" $w
		[ "$(kind "$T/null")" = "character special file" ] ||
			{ bad "${w%% *}: the character device was replaced"
			  rm -f "$T/null"; mknod "$T/null" c 1 3; }
	done
	expect 2 "synth -o BLOCKDEV" synth -o "$T/blk"
	[ "$(kind "$T/blk")" = "block special file" ] &&
		ok "block device kept" || bad "block device replaced"
else
	echo "# no mknod (not root): the device cases are left out"
fi

# an output that is also an input
cp "$T/ref.idl" "$T/t.idl"
expect 2 "replay -o T T" "$IDLELAB" replay -o "$T/t.idl" "$T/t.idl"
ln "$T/t.idl" "$T/hard.idl"
expect 2 "replay -o HARDLINK T" "$IDLELAB" replay -o "$T/hard.idl" \
	"$T/t.idl"
expect 2 "replay -o ./T T" "$IDLELAB" replay -o "$T/./t.idl" \
	"$T/t.idl"
cmp -s "$T/t.idl" "$T/ref.idl" && ok "the input unchanged" ||
	bad "the input was overwritten"
expect 2 "record -o X --raw X" "$IDLELAB" record -o "$T/x" \
	--raw "$T/x" -- true
grep -q 'also the file of --raw' "$T/err" || bad "record: $(cat "$T/err")"
echo 'int x;' >"$T/g.c"
expect 2 "governor build G.c -o G.c" "$IDLELAB" governor build \
	"$T/g.c" -o "$T/g.c"
[ "$(cat "$T/g.c")" = 'int x;' ] && ok "the source unchanged" ||
	bad "the source was overwritten"
cp "$top_srcdir/tests/fixtures/tables/full.table" "$T/s.table"
expect 2 "import --states T -o T" "$IDLELAB" import --states \
	"$T/s.table" -o "$T/s.table" \
	"$top_srcdir/tests/fixtures/import/haltpoll-live.txt"
expect 2 "states --file T --save T" "$IDLELAB" states \
	--file "$T/s.table" --save "$T/s.table"
cmp -s "$T/s.table" "$top_srcdir/tests/fixtures/tables/full.table" &&
	ok "the table unchanged" || bad "the table was overwritten"
cp "$T/ref.json" "$T/r.json"
expect 2 "report -o R R" "$IDLELAB" report -o "$T/r.json" "$T/r.json"
expect 2 "merge -o P P" "$IDLELAB" merge -o "$T/r.json" "$T/r.json"
expect 2 "sweep -o T T" "$IDLELAB" sweep -g menu -o "$T/t.idl" \
	"$T/t.idl"
cmp -s "$T/r.json" "$T/ref.json" && cmp -s "$T/t.idl" "$T/ref.idl" &&
	ok "results and trace unchanged" || bad "an input was overwritten"
finish
