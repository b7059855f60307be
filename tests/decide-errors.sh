#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `idlelab decide` on bad input: the exact message on standard error,
# exit status 2, and on standard output exactly the decisions of the
# lines before the bad one.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
tmpdir
n=0

HEAD='state 0 POLL 0 0 polling
state 1 C1 2000 2000 -
state 2 C1E 10000 20000 -
state 3 C6 133000 400000 -'

# check NAME GOVERNOR EXPECTED_STDOUT EXPECTED_STDERR; the stream is $T/in
check() {
	n=$((n + 1))
	"$IDLELAB" decide --governor "$2" <"$T/in" >"$T/out" 2>"$T/err"
	rc=$?
	printf '%s' "$3" >"$T/exp-out"
	[ -z "$3" ] || echo >>"$T/exp-out"
	printf '%s\n' "$4" >"$T/exp-err"
	if [ $rc -ne 2 ]; then
		bad "$1: exit status $rc, expected 2"
	elif ! cmp -s "$T/exp-out" "$T/out"; then
		bad "$1: standard output:"; cat "$T/out"
	elif ! cmp -s "$T/exp-err" "$T/err"; then
		bad "$1: standard error:"; cat "$T/err"
		echo "expected:"; cat "$T/exp-err"
	else
		ok "$1"
	fi
}

printf '%s\nselect 1 1 0\nfoo 1\nselect 1 1 0\n' "$HEAD" >"$T/in"
	check unknown-directive ladder "1 1" \
	"decide: line 6: unknown directive 'foo'"
printf '%s\nselect 1 1 0\nselect 1 1 0\n' "$HEAD" >"$T/in"
	check select-after-select ladder "1 1" \
	"decide: line 6: select after select without reflect or busy"
printf '%s\nreflect 1 100 0 0\n' "$HEAD" >"$T/in"
	check reflect-first ladder "" \
	"decide: line 5: reflect without a select"
printf '%s\nselect 1 1 0\nreflect 1 100 0 0\nreflect 1 100 0 0\n' "$HEAD" >"$T/in"
	check reflect-twice ladder "1 1" \
	"decide: line 7: reflect without a select"
printf '%s\nselect 1 1 0\nbusy\nreflect 1 100 0 0\n' "$HEAD" >"$T/in"
	check reflect-after-busy ladder "1 1" \
	"decide: line 7: reflect after busy: the selection was not entered"
printf '%s\nselect 1 1 0\nbusy\nbusy\n' "$HEAD" >"$T/in"
	check busy-twice ladder "1 1" \
	"decide: line 7: busy without a select"
printf '%s\nbusy\n' "$HEAD" >"$T/in"
	check busy-first ladder "" "decide: line 5: busy without a select"
printf '%s\nselect 1 1 0\nreflect 4 100 0 0\n' "$HEAD" >"$T/in"
	check reflect-index ladder "1 1" \
	"decide: line 6: reflect: state index 4 out of range (4 states)"
printf '%s\nselect 1 1 0\nreflect -1 100 0 0\n' "$HEAD" >"$T/in"
	check reflect-negative-index ladder "1 1" \
	"decide: line 6: reflect: state index -1 out of range (4 states)"
printf '%s\nselect 1 1 0\nreflect 1 -5 0 0\n' "$HEAD" >"$T/in"
	check reflect-negative-residency ladder "1 1" \
	"decide: line 6: reflect: LAST_RESIDENCY_NS: '-5' is not a non-negative decimal integer"
printf '%s\nselect 1 1 0\nreflect 1 5 2 0\n' "$HEAD" >"$T/in"
	check reflect-got-tick ladder "1 1" \
	"decide: line 6: reflect: GOT_TICK must be 0 or 1, not '2'"
printf '%s\nselect 1 1 0\nreflect 1 5 0\n' "$HEAD" >"$T/in"
	check reflect-fields ladder "1 1" \
	"decide: line 6: reflect: expected 4 values, got 3"
printf '%s\nselect 1 1\n' "$HEAD" >"$T/in"
	check select-fields ladder "" \
	"decide: line 5: select: expected 3 values, got 2"
printf '%s\nselect 1x 1 0\n' "$HEAD" >"$T/in"
	check select-number ladder "" \
	"decide: line 5: select: SLEEP_LENGTH_NS: '1x' is not a decimal integer"
printf '%s\nselect 1 99999999999999999999 0\n' "$HEAD" >"$T/in"
	check select-range ladder "" \
	"decide: line 5: select: DELTA_TICK_NS: 99999999999999999999 is out of range"
printf '%s\nselect 1 1 2\n' "$HEAD" >"$T/in"
	check select-tick-stopped ladder "" \
	"decide: line 5: select: TICK_STOPPED must be 0 or 1, not '2'"
printf 'state 0 POLL 0 0 polling\nstate 2 C1 2000 2000 -\n' >"$T/in"
	check state-gap ladder "" "decide: line 2: state: expected index 1, got 2"
printf '%s\nselect 1 1 0\nreflect 1 1 0 0\nstate 4 C7 1 1 -\n' "$HEAD" >"$T/in"
	check state-late ladder "1 1" \
	"decide: line 7: state must come before the first select"
printf '%s\nselect 1 1 0\nbusy\nhz 1000\n' "$HEAD" >"$T/in"
	check hz-late ladder "1 1" \
	"decide: line 7: hz must come before the first select"
printf 'hz 0\n' >"$T/in"
	check hz-zero ladder "" "decide: line 1: hz: 0 is out of range [1, 100000]"
printf 'state 0 POLL 0 0 polling,deep\n' >"$T/in"
	check state-flag ladder "" \
	"decide: line 1: state: unknown flag 'deep' (flags: polling, timer_stop, or - for none)"
printf 'state 0 POLL 0 0 polling,\n' >"$T/in"
	check state-empty-flag ladder "" \
	"decide: line 1: state: unknown flag '' (flags: polling, timer_stop, or - for none)"
printf 'state 0 POLL 0 0\n' >"$T/in"
	check state-fields ladder "" \
	"decide: line 1: state: expected 5 values, got 4"
printf 'state 0 POLL -1 0 polling\n' >"$T/in"
	check state-negative ladder "" \
	"decide: line 1: state: negative exit latency or target residency"
printf 'state 0 POLLING_FOREVER_AND_EVER 0 0 polling\n' >"$T/in"
	check state-name ladder "" \
	"decide: line 1: state: name 'POLLING_FOREVER_AND_EVER' longer than 15 characters"
printf '# one state\n\nstate 0 POLL 0 0 polling\nselect 1 1 0\n' >"$T/in"
	check one-state haltpoll "" \
	"decide: line 4: select: the state table needs at least 2 states (has 1)"
printf '%s\ndisable 4 1\n' "$HEAD" >"$T/in"
	check disable-index ladder "" \
	"decide: line 5: disable: state index 4 out of range (4 states)"
printf '%s\nselect 1 1 0\nbusy\ndisable 1 yes\n' "$HEAD" >"$T/in"
	check disable-value ladder "1 1" \
	"decide: line 7: disable: the value must be 0 or 1, not 'yes'"
printf '%s\nlatency_req\n' "$HEAD" >"$T/in"
	check latency-fields ladder "" \
	"decide: line 5: latency_req: expected 1 value, got 0"
printf '%s\nselect 1 1 0\nbusy\nselect 1 1 0\nreflect 3 100 0 0\nselect 1 1 0\nreflect 9 1 0 0\nselect 1 1 0\n' "$HEAD" >"$T/in"
	check decisions-before haltpoll "1 1
1 1
0 0" "decide: line 10: reflect: state index 9 out of range (4 states)"

# Command-line errors.
cmdline() {
	n=$((n + 1))
	what=$1
	want=$2
	shift 2
	"$IDLELAB" decide "$@" </dev/null >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -ne 2 ] || ! grep -qF -- "$want" "$T/err"; then
		bad "$what: status $rc:"; cat "$T/err"
	else
		ok "$what"
	fi
}
cmdline no-governor "decide: --governor is required"
cmdline oracle "decide: governor 'oracle' needs hindsight" --governor oracle
cmdline unknown-governor "decide: unknown governor 'nope' (governors: " -g nope
cmdline unknown-param \
	"decide: ladder: unknown parameter 'x' (parameters: promotion_count, demotion_count)" \
	-g ladder:x=1
cmdline param-twice "decide: menu: decay given twice" -g menu:decay=8,decay=4
cmdline bad-option "idlelab decide: unknown option '--frob'" --frob -g ladder
cmdline missing-file "decide: /nonexistent/s.in: No such file or directory" \
	-g ladder /nonexistent/s.in

n=$((n + 1))
if "$IDLELAB" decide --help >"$T/out" && grep -q '^usage: idlelab decide' "$T/out"
then
	ok "--help"
else
	bad "--help"
fi

echo "$n checks, $fails failed"
finish
