#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion (contrib/bash-completion/idlelab): its function is
# called as bash calls it (COMP_LINE, COMP_POINT, COMP_WORDS, COMP_CWORD,
# COMP_WORDBREAKS with ':' and '='), with this tree's idlelab as the
# command, and what it offers is checked against the commands, options,
# governors, tunables and tables this idlelab has.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
command -v bash >/dev/null || skip "no bash"
# shellcheck source=/dev/null
. "$top_srcdir/contrib/bash-completion/idlelab"
compopt() { :; }	# only inside a real completion
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
completes() {	# LINE WANT
	local got
	got=$(offers "$1")
	if [ "$got" = "$2" ]; then
		ok "[$1] -> $got"
	else
		bad "[$1] -> '$got', want '$2'"
	fi
}
I=$IDLELAB
completes "$I re" "record replay report"
completes "$I rep" "replay report"
completes "$I replay -g me" "menu"
completes "$I replay --governors la" "ladder"
completes "$I replay -g menu,te" "menu,teo"
completes "$I decide -g hal" "haltpoll"
# after NAME: the tunables (bash replaces what follows the last ':'/'=')
completes "$I replay -g menu:" "decay= intervals= resolution="
completes "$I replay -g teo:decay_" "decay_shift="
completes "$I replay -g menu:decay=4,in" "4,intervals="
completes "$I replay --machine sk" "skl skx"
completes "$I compare --st" "--style"
completes "$I governor " "build list"
completes "$I replay -j " ""
# every command of --help, every option of each command's --help
want=$("$I" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' |
	sort | tr '\n' ' ' | sed 's/ $//')
got=$(offers "$I " | tr ' ' '\n' | grep -v '^--' | tr '\n' ' ' | sed 's/ $//')
[ "$got" = "$want" ] && ok "every command" ||
	bad "commands: '$got', want '$want'"
for c in $want; do
	want_o=$("$I" "$c" --help | grep -o -- '--[a-z0-9-]*' | sort -u |
		tr '\n' ' ' | sed 's/ $//')
	got_o=$(offers "$I $c --")
	for o in $got_o; do
		[[ " $want_o " == *" $o "* ]] || bad "$c: $o is not in its --help"
	done
	[ -n "$got_o" ] || bad "$c: no options offered"
done
[ "$fails" = 0 ] && ok "every command's options are its --help's"
finish
