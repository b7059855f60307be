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
: "${IDLELAB:=./idlelab}" "${top_srcdir:=.}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/output-targets.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

# expect STATUS WHAT COMMAND...: the exit status, and a message on stderr
expect() {
	local want=$1 what=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$want" ]; then
		ok "$what: exit $rc"
	else
		bad "$what: exit $rc, want $want ($(head -2 "$tmp/err"))"
	fi
}

kind() { stat -c %F "$1"; }

synth() { "$IDLELAB" synth -m vm-haltpoll -d 0.05 --seed 3 "$@"; }
synth -o "$tmp/ref.idl" >/dev/null || { echo "FAIL - synth"; exit 1; }
"$IDLELAB" replay --format json -o "$tmp/ref.json" "$tmp/ref.idl" ||
	{ echo "FAIL - replay"; exit 1; }
strip_time() { grep -v '"generated\|"created\|"date\|"time"' "$1"; }

# a FIFO: the reader gets exactly the file's bytes, the FIFO stays one
mkfifo "$tmp/fifo"
# the reader gives up when nothing comes (the FIFO was replaced)
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.idl" &
reader=$!
expect 0 "synth -o FIFO" synth -o "$tmp/fifo"
wait $reader
cmp -s "$tmp/fifo.idl" "$tmp/ref.idl" && ok "FIFO: the whole trace" ||
	bad "FIFO: $(wc -c <"$tmp/fifo.idl") bytes, want $(wc -c <"$tmp/ref.idl")"
[ "$(kind "$tmp/fifo")" = fifo ] && ok "FIFO kept" || bad "FIFO replaced"
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.json" &
reader=$!
expect 0 "replay -o FIFO (JSON)" "$IDLELAB" replay --format json \
	-o "$tmp/fifo" "$tmp/ref.idl"
wait $reader
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' \
	"$tmp/fifo.json" && ok "FIFO: valid JSON" || bad "FIFO: JSON"

# standard output on a pipe, through a link as /dev/stdout is (the test's
# own: an older build would replace the host's): the trace and nothing
# else, the summary on stderr
ln -s /proc/self/fd/1 "$tmp/stdout"
synth -o "$tmp/stdout" 2>"$tmp/err" | cat >"$tmp/pipe.idl"
cmp -s "$tmp/pipe.idl" "$tmp/ref.idl" && grep -q 'idle periods' "$tmp/err" &&
	ok "-o STDOUT on a pipe: the trace, the summary on stderr" ||
	bad "-o STDOUT on a pipe: $(wc -c <"$tmp/pipe.idl") bytes, want $(wc -c <"$tmp/ref.idl")"
[ -L "$tmp/stdout" ] && ok "the stdout link kept" || bad "stdout link replaced"

# a symlink to a regular file: the file is replaced, the link stays
echo old >"$tmp/target.idl"
ln -s target.idl "$tmp/link.idl"
expect 0 "synth -o SYMLINK" synth -o "$tmp/link.idl"
[ -L "$tmp/link.idl" ] && cmp -s "$tmp/target.idl" "$tmp/ref.idl" &&
	ok "symlink kept, its file written" || bad "symlink: $(ls -l "$tmp")"

# refused before anything runs, nothing touched
mkdir "$tmp/dir"
expect 2 "synth -o DIR" synth -o "$tmp/dir"
grep -q 'is a directory' "$tmp/err" || bad "DIR: $(cat "$tmp/err")"
ln -s nothing "$tmp/dangling"
expect 2 "synth -o dangling symlink" synth -o "$tmp/dangling"
[ -L "$tmp/dangling" ] && [ ! -e "$tmp/nothing" ] ||
	bad "dangling symlink touched"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$tmp/sock"
expect 2 "replay -o SOCKET" "$IDLELAB" replay -o "$tmp/sock" "$tmp/ref.idl"
[ "$(kind "$tmp/sock")" = socket ] && ok "socket kept" || bad "socket replaced"

# the test's own device nodes (root)
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null &&
   mknod "$tmp/blk" b 7 0 2>/dev/null; then
	for w in "synth -m vm-haltpoll -d 0.01 -o $tmp/null" \
		 "replay -o $tmp/null $tmp/ref.idl" \
		 "replay --format json -o $tmp/null $tmp/ref.idl" \
		 "import -q --states $top_srcdir/tests/fixtures/tables/haltpoll.table -o $tmp/null $top_srcdir/tests/fixtures/import/haltpoll-live.txt" \
		 "states --file $top_srcdir/tests/fixtures/tables/full.table --save $tmp/null" \
		 "report -o $tmp/null $tmp/ref.json"; do
		# shellcheck disable=SC2086
		expect 0 "${w%% *} into a character device" "$IDLELAB" $w
		[ "$(kind "$tmp/null")" = "character special file" ] ||
			{ bad "${w%% *}: the character device was replaced"
			  rm -f "$tmp/null"; mknod "$tmp/null" c 1 3; }
	done
	expect 2 "synth -o BLOCKDEV" synth -o "$tmp/blk"
	[ "$(kind "$tmp/blk")" = "block special file" ] &&
		ok "block device kept" || bad "block device replaced"
else
	echo "# no mknod (not root): the device cases are left out"
fi

# an output that is also an input
cp "$tmp/ref.idl" "$tmp/t.idl"
expect 2 "replay -o T T" "$IDLELAB" replay -o "$tmp/t.idl" "$tmp/t.idl"
ln "$tmp/t.idl" "$tmp/hard.idl"
expect 2 "replay -o HARDLINK T" "$IDLELAB" replay -o "$tmp/hard.idl" \
	"$tmp/t.idl"
expect 2 "replay -o ./T T" "$IDLELAB" replay -o "$tmp/./t.idl" \
	"$tmp/t.idl"
cmp -s "$tmp/t.idl" "$tmp/ref.idl" && ok "the input unchanged" ||
	bad "the input was overwritten"
expect 2 "record -o X --raw X" "$IDLELAB" record -o "$tmp/x" \
	--raw "$tmp/x" -- true
grep -q 'also the file of --raw' "$tmp/err" || bad "record: $(cat "$tmp/err")"
echo 'int x;' >"$tmp/g.c"
expect 2 "governor build G.c -o G.c" "$IDLELAB" governor build \
	"$tmp/g.c" -o "$tmp/g.c"
[ "$(cat "$tmp/g.c")" = 'int x;' ] && ok "the source unchanged" ||
	bad "the source was overwritten"
cp "$top_srcdir/tests/fixtures/tables/full.table" "$tmp/s.table"
expect 2 "import --states T -o T" "$IDLELAB" import --states \
	"$tmp/s.table" -o "$tmp/s.table" \
	"$top_srcdir/tests/fixtures/import/haltpoll-live.txt"
expect 2 "states --file T --save T" "$IDLELAB" states \
	--file "$tmp/s.table" --save "$tmp/s.table"
cmp -s "$tmp/s.table" "$top_srcdir/tests/fixtures/tables/full.table" &&
	ok "the table unchanged" || bad "the table was overwritten"
cp "$tmp/ref.json" "$tmp/r.json"
expect 2 "report -o R R" "$IDLELAB" report -o "$tmp/r.json" "$tmp/r.json"
expect 2 "merge -o P P" "$IDLELAB" merge -o "$tmp/r.json" "$tmp/r.json"
expect 2 "sweep -o T T" "$IDLELAB" sweep -g menu -o "$tmp/t.idl" \
	"$tmp/t.idl"
cmp -s "$tmp/r.json" "$tmp/ref.json" && cmp -s "$tmp/t.idl" "$tmp/ref.idl" &&
	ok "results and trace unchanged" || bad "an input was overwritten"
exit $fail
