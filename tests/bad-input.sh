#!/usr/bin/env bash
# Every command that reads a file, run over the bad-input corpus
# (tests/bad-input/MANIFEST): each must give its expected exit status and
# the expected first line of the error (a prefix), within a time limit:
# never a crash, a hang or a silent success.
#
# MANIFEST lines: FILE | COMMAND | STATUS | EXPECTED-ERROR-PREFIX
#   FILE     a file in tests/bad-input, or a generated one:
#            @dir (a directory), @missing (under a non-existent dir),
#            @notdir (below a regular file), @fifo (a FIFO fed by a
#            writer that closes it), @fifo-nowriter (a FIFO nobody
#            opens for writing), @trace-pipe, @trace-file (trace_pipe
#            and trace of a tracefs instance of this test's own; root,
#            else skipped), @sysfs-file (a readable sysfs file),
#            @zero (/dev/zero), @sparse (an 8 GiB
#            sparse file), @longline-table (a table with a 100 KB
#            comment line), @hugeline-ftrace, @hugeline-report,
#            @hugeline-decide, @hugeline-table, @hugeline-json (a 64 MiB
#            line after a valid start), @dat-trunc (the trappy trace.dat
#            of the data corpus cut 376 bytes short; the corpus is
#            $IDLELAB_CORPUS, by default shared/corpus in the directory
#            that holds the source tree, and the line is skipped when
#            the file is not there)
#   COMMAND  idlelab arguments; {} is the file, {out} an output path,
#            {dir} this corpus directory (tests/bad-input in the sources)
#   STATUS   expected exit status
#   PREFIX   the first line of standard error starts with this ({} is
#            replaced by the file); "-" for no error output expected
#   NOTE     optional 5th field "xfail: why": a known bug in code this
#            test's owner may not change; the line then states the right
#            behaviour, its failure is reported as XFAIL, and its passing
#            as XPASS, which fails (remove the marker once fixed)
# Usage: bad-input.sh [--learn]  (--learn prints what happens instead)
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
dir=$top_srcdir/tests/bad-input
learn=${1:-}
tmpdir
fifo_pid=
inst=
cleanup() {
	[ -n "$fifo_pid" ] && kill "$fifo_pid" 2>/dev/null
	[ -n "$inst" ] && rmdir "$inst" 2>/dev/null
}
TIMEOUT=${BAD_INPUT_TIMEOUT:-120}

# a line of 64 MiB of 'x' after a valid beginning
hugeline() {
	printf '%s' "$1" >"$2"
	head -c $((64 << 20)) /dev/zero | tr '\0' x >>"$2"
	printf '\n' >>"$2"
}

# the path of FILE, generating it when its name starts with @
path_of() {
	case $1 in
	@dir) mkdir -p "$T/a-dir"; echo "$T/a-dir" ;;
	@missing) echo "$T/no-such-dir/file" ;;
	@notdir) : >"$T/plain"; echo "$T/plain/file" ;;
	@fifo) echo "$T/fifo" ;;
	@fifo-nowriter)
		[ -p "$T/fifo-nw" ] || mkfifo "$T/fifo-nw"
		echo "$T/fifo-nw" ;;
	@trace-pipe) [ -z "$inst" ] || echo "$inst/trace_pipe" ;;
	@trace-file) [ -z "$inst" ] || echo "$inst/trace" ;;
	@sysfs-file) f=/sys/kernel/mm/transparent_hugepage/enabled
		[ -r $f ] && echo $f ;;
	@zero) echo /dev/zero ;;
	@sparse)
		[ -f "$T/sparse" ] || truncate -s 8G "$T/sparse"
		echo "$T/sparse" ;;
	@longline-table)
		if [ ! -f "$T/ll-table" ]; then
			printf 'name x\n# ' >"$T/ll-table"
			head -c 100000 /dev/zero | tr '\0' x >>"$T/ll-table"
			printf '\nstate 0 POLL 0 0\n' >>"$T/ll-table"
		fi
		echo "$T/ll-table" ;;
	@hugeline-ftrace)
		[ -f "$T/hl-ftrace" ] || hugeline "$(printf '# tracer: nop\n          <idle>-0       [000] d..1.   100.000100: cpu_idle: state=1 cpu_id=0 ')" "$T/hl-ftrace"
		echo "$T/hl-ftrace" ;;
	@hugeline-report)
		[ -f "$T/hl-report" ] || hugeline "$(printf 'cpus=2\n          <idle>-0     [000] 100.000100: cpu_idle:             state=1 cpu_id=0 ')" "$T/hl-report"
		echo "$T/hl-report" ;;
	@hugeline-decide)
		[ -f "$T/hl-decide" ] || hugeline "$(printf 'hz 250\n# ')" "$T/hl-decide"
		echo "$T/hl-decide" ;;
	@hugeline-table)
		[ -f "$T/hl-table" ] || hugeline "$(printf 'name x\n# ')" "$T/hl-table"
		echo "$T/hl-table" ;;
	@hugeline-json)
		[ -f "$T/hl-json" ] || hugeline '{"format": "' "$T/hl-json"
		echo "$T/hl-json" ;;
	@dat-trunc)
		local c=${IDLELAB_CORPUS:-$(cd "$top_srcdir/.." && pwd)/shared/corpus}
		local d=$c/traces/trappy_juno_trace_idle.trace.dat
		[ -f "$d" ] || return 0
		head -c 3301000 "$d" >"$T/trunc.dat"
		echo "$T/trunc.dat" ;;
	*) echo "$dir/$1" ;;
	esac
}

if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/instances ]; then
	inst=/sys/kernel/tracing/instances/idlelab-badinput-$$
	mkdir "$inst" 2>/dev/null || inst=
fi

n=0 xfails=0
while IFS='|' read -r file cmd status prefix note; do
	file=$(echo "$file" | sed 's/^ *//; s/ *$//')
	case $file in ''|'#'*) continue ;; esac
	cmd=$(echo "$cmd" | sed 's/^ *//; s/ *$//')
	status=$(echo "$status" | tr -d ' ')
	prefix=$(echo "$prefix" | sed 's/^ //; s/ *$//')
	note=$(echo "${note:-}" | sed 's/^ *//; s/ *$//')
	p=$(path_of "$file")
	if [ -z "$p" ]; then
		echo "SKIP: $file: not available here"
		continue
	fi
	if [ "$file" = @fifo ]; then
		# a writer feeds one copy of garbage, then closes; a reader
		# that opens the FIFO twice blocks (the time limit catches it)
		rm -f "$p"
		mkfifo "$p"
		( cat "$dir/garbage.bin" >"$p" ) >/dev/null 2>&1 &
		fifo_pid=$!
	fi
	out=$T/out
	rm -rf "$out"
	args=${cmd//\{\}/$p}
	args=${args//\{out\}/$out}
	args=${args//\{dir\}/$dir}
	# shellcheck disable=SC2086 # the template is split into words
	t=$TIMEOUT
	case $note in xfail*) t=10 ;; esac	# a known hang need not wait
	case $file in @fifo-nowriter|@trace-pipe|@zero) t=10 ;; esac	# nor a hang
	timeout "$t" "$IDLELAB" $args >"$T/stdout" 2>"$T/stderr" \
		</dev/null
	got=$?
	first=$(head -n1 "$T/stderr")
	if [ -n "$fifo_pid" ]; then
		kill "$fifo_pid" 2>/dev/null
		wait "$fifo_pid" 2>/dev/null
		fifo_pid=
	fi
	n=$((n + 1))
	if [ "$learn" = --learn ]; then
		shown=${first//$p/\{\}}
		printf '%s | %s | %s | %s\n' "$file" "$cmd" "$got" "${shown:--}"
		continue
	fi
	want=${prefix//\{\}/$p}
	ok=1
	[ "$got" = "$status" ] || ok=0
	if [ "$prefix" = - ]; then
		[ -z "$first" ] || ok=0
	else
		case $first in "$want"*) ;; *) ok=0 ;; esac
	fi
	# an error must not leave a (partial) output behind
	if [ "$got" != 0 ] && [ -e "$out" ]; then
		echo "FAIL: $file: $cmd: left $out behind"
		ok=0
	fi
	case $note in
	xfail*)
		if [ $ok = 0 ]; then
			echo "XFAIL: $file: idlelab $cmd (${note#xfail: }):" \
				"status $got, $first"
			xfails=$((xfails + 1))
		else
			echo "XPASS: $file: idlelab $cmd: remove the xfail mark"
			fails=$((fails + 1))
		fi
		continue ;;
	esac
	if [ $ok = 0 ]; then
		bad "$file: idlelab $cmd"
		echo "  expected status $status, error: $want"
		echo "  got      status $got, error: $first"
	fi
done <"$dir/MANIFEST"

[ "$learn" = --learn ] && exit 0
echo "bad-input: $n cases, $fails failed, $xfails known bugs (XFAIL)"
[ $n -ge 50 ] || { echo "bad-input: MANIFEST too short"; exit 1; }
finish
