#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion (contrib/bash-completion/idlelab): its function is
# called as bash calls it (COMP_LINE, COMP_POINT, COMP_WORDS, COMP_CWORD,
# COMP_WORDBREAKS with ':' and '='), with this tree's idlelab as the
# command, and what it offers is checked against the commands, options,
# governors, tunables and tables this idlelab has.
set -u
: "${IDLELAB:=./idlelab}" "${top_srcdir:=.}"
command -v bash >/dev/null || { echo "SKIP: no bash"; exit 77; }
# shellcheck source=/dev/null
. "$top_srcdir/contrib/bash-completion/idlelab"
compopt() { :; }	# only inside a real completion
fail=0
COMP_WORDBREAKS=$' \t\n"\'><=;|&(:'

# offers LINE: what the completion offers, sorted, one line
offers() {
	COMP_LINE=$1 COMP_POINT=${#1}
	read -ra COMP_WORDS <<<"$1"
	[[ $1 == *' ' ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_idlelab
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {	# LINE WANT
	local got
	got=$(offers "$1")
	if [ "$got" = "$2" ]; then
		echo "ok: [$1] -> $got"
	else
		echo "FAIL: [$1] -> '$got', want '$2'"
		fail=1
	fi
}
I=$IDLELAB
expect "$I re" "record replay report"
expect "$I rep" "replay report"
expect "$I replay -g me" "menu"
expect "$I replay --governors la" "ladder"
expect "$I replay -g menu,te" "menu,teo"
expect "$I decide -g hal" "haltpoll"
# after NAME: the tunables (bash replaces what follows the last ':'/'=')
expect "$I replay -g menu:" "decay= intervals= resolution="
expect "$I replay -g teo:decay_" "decay_shift="
expect "$I replay -g menu:decay=4,in" "4,intervals="
expect "$I replay --machine sk" "skl skx"
expect "$I compare --st" "--style"
expect "$I governor " "build list"
expect "$I replay -j " ""
# every command of --help, every option of each command's --help
want=$("$I" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' |
	sort | tr '\n' ' ' | sed 's/ $//')
got=$(offers "$I " | tr ' ' '\n' | grep -v '^--' | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] && echo "ok: every command" ||
	{ echo "FAIL: commands: '$got', want '$want'"; fail=1; }
for c in $want; do
	want_o=$("$I" "$c" --help | grep -o -- '--[a-z0-9-]*' | sort -u |
		tr '\n' ' ' | sed 's/ $//')
	got_o=$(offers "$I $c --")
	for o in $got_o; do
		[[ " $want_o " == *" $o "* ]] ||
			{ echo "FAIL: $c: $o is not in its --help"; fail=1; }
	done
	[ -n "$got_o" ] || { echo "FAIL: $c: no options offered"; fail=1; }
done
[ $fail = 0 ] && echo "ok: every command's options are its --help's"
exit $fail
