#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On this machine (root only): 'idlelab states' shows the same state
# names and latencies as 'cpupower idle-info'.  SKIP without cpuidle or
# cpupower.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root"
[ -d /sys/devices/system/cpu/cpu0/cpuidle ] || skip "no cpuidle"
command -v cpupower >/dev/null 2>&1 || skip "no cpupower"
tmpdir

# cpupower: a "NAME:" line followed by "Flags/Description:", then
# "Latency: N" further down.  Print "NAME|LATENCY".
cpupower -c 0 idle-info 2>/dev/null | awk '
	/^Flags\/Description:/ { name = prev; sub(/:$/, "", name) }
	/^Latency:/ && name != "" { print name "|" $2; name = "" }
	{ prev = $0 }' >"$T/cpupower"
"$IDLELAB" states --cpu 0 --format csv | awk -F, 'NR > 1 { print $2 "|" $4 }' \
	>"$T/idlelab" || exit 1
[ -s "$T/cpupower" ] || skip "cpupower shows no states"
if ! cmp -s "$T/cpupower" "$T/idlelab"; then
	echo "FAIL: cpupower and idlelab differ"
	diff "$T/cpupower" "$T/idlelab"
	exit 1
fi
ok "same states as cpupower: $(tr '\n' ' ' <"$T/idlelab")"
