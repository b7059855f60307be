# SPDX-License-Identifier: GPL-2.0-or-later
# What the shell tests share.  A test sources it before anything else:
#
#	# shellcheck source-path=SCRIPTDIR source=lib.sh
#	. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
#
# make check exports top_srcdir; run by hand, or in the lab's guest
# (lab.sh run copies tests/*.sh there), the test's own directory is used.
# POSIX sh: the tests run under $(SHELL), which can be dash.  It sets
# IDLELAB (default ./idlelab) and top_srcdir when they are not set, and
# changes no shell option.
#
#   ok TEXT, bad TEXT  a check passed ("ok: TEXT") or failed ("FAIL:
#                      TEXT"), counted in $passes and $fails; $failures
#                      holds every FAIL line, for a summary at the end
#                      (where a program the test runs says what failed,
#                      the test adds to $fails itself)
#   fatal TEXT         "FAIL: TEXT" and exit 1: the test cannot go on
#   skip TEXT          "SKIP: TEXT" and exit 77
#   finish             exit 0 when no check failed, else 1
#   expect STATUS WHAT CMD...
#                      CMD exits with STATUS; its standard output and
#                      error are left in $T/out and $T/err
#   expect_err STATUS WHAT PATTERN CMD...
#                      the same, and its standard error matches PATTERN
#                      (grep)
#   has FILE TEXT      FILE holds TEXT, runs of spaces counted as one
#   tmpdir             $T, a new directory, removed at exit after the
#                      test's cleanup function (if it defines one) has
#                      run; INT, TERM and HUP exit 1, so that they clean
#                      up too
#   live_lock          holds the lock of idlelab live sessions until exit
#   lab_prologue [TOOL...]
#                      the start of tests/lab-*.sh

: "${IDLELAB:=./idlelab}" "${top_srcdir:=$(dirname "$0")/..}"
passes=0
fails=0
failures=

ok() {
	echo "ok: $*"
	passes=$((passes + 1))
}

bad() {
	echo "FAIL: $*"
	fails=$((fails + 1))
	failures="$failures
FAIL: $*"
}

fatal() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

finish() {
	[ "$fails" = 0 ] && exit 0
	exit 1
}

expect() {
	lib_want=$1 lib_what=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	lib_got=$?
	if [ "$lib_got" = "$lib_want" ]; then
		ok "$lib_what"
	else
		bad "$lib_what: exit $lib_got, want $lib_want: $(head -n 5 "$T/err")"
	fi
}

expect_err() {
	lib_want=$1 lib_what=$2 lib_pat=$3
	shift 3
	"$@" >"$T/out" 2>"$T/err"
	lib_got=$?
	if [ "$lib_got" = "$lib_want" ] && grep -q -e "$lib_pat" "$T/err"; then
		ok "$lib_what"
	else
		bad "$lib_what: exit $lib_got, want $lib_want and" \
		    "'$lib_pat': $(head -n 5 "$T/err")"
	fi
}

has() {
	lib_want=$(printf '%s' "$2" | tr -s ' ')
	tr -s ' ' <"$1" | grep -F -q -e "$lib_want" ||
		bad "$1 lacks '$lib_want': $(head -c 600 "$1")"
}

# the test's own clean-up, run at exit before $T is removed: a test
# defines its own when it changes more than $T
cleanup() {
	:
}

lib_exit() {
	lib_status=$?
	cleanup || :
	rm -rf "$T"
	exit "$lib_status"
}

tmpdir() {
	T=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-$(basename "$0" .sh).XXXXXX") ||
		{ echo "ERROR: cannot make a temporary directory"; exit 99; }
	trap lib_exit EXIT
	trap 'exit 1' INT TERM HUP
}

# No live session, nor another test that switches governors or leaves
# tracefs instances of dead recorders, runs while the test holds the
# lock (descriptor 9, until exit).  The governor to put back is read
# once the lock is held: read before, it could be another test's.
live_lock() {
	lib_run=${IDLELAB_RUN_DIR:-/run/idlelab}
	mkdir -p "$lib_run" && exec 9>>"$lib_run/live.lock" &&
		flock -w 900 9 || fatal "cannot take $lib_run/live.lock"
}

# lab_prologue [TOOL...]: SKIP without the lab's packages (and TOOLs;
# ./quickstart check installs them) or when Debian's arm64 kernel cannot
# be fetched; then IDLELAB absolute and exported (lab.sh runs it), a
# cache of the user's own when not root, $T, and the 6.12 kernel and the
# guest's pieces fetched (lab.sh fetch)
lab_prologue() {
	for lib_t in qemu-system-aarch64 fdtput aarch64-linux-gnu-gcc cpio \
		     python3 apt-get dpkg-deb "$@"; do
		command -v "$lib_t" >/dev/null ||
			skip "no $lib_t (./quickstart check installs the lab)"
	done
	dpkg-query -W -f='${Status}' linux-source-6.12 2>/dev/null |
		grep -q 'install ok installed' ||
		skip "linux-source-6.12 is not installed"
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		skip "no arm64 packages (dpkg --add-architecture arm64)"
	if [ -z "${IDLELAB_LAB_CACHE:-}" ] && [ "$(id -u)" != 0 ]; then
		IDLELAB_LAB_CACHE=${TMPDIR:-/tmp}/idlelab-lab-$(id -u)
		export IDLELAB_LAB_CACHE
	fi
	IDLELAB=$(cd "$(dirname "$IDLELAB")" && pwd)/$(basename "$IDLELAB")
	export IDLELAB
	tmpdir
	if ! bash "$top_srcdir/lab/lab.sh" fetch 6.12 >"$T/fetch.log" 2>&1; then
		grep -q 'apt-get download' "$T/fetch.log" &&
			skip "$(tail -1 "$T/fetch.log")"
		echo "FAIL: lab fetch"
		cat "$T/fetch.log"
		exit 1
	fi
}
