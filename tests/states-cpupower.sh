#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# On this machine (root only): 'idlelab states' shows the same state
# names and latencies as 'cpupower idle-info'.  SKIP without cpuidle or
# cpupower.
set -u
: "${IDLELAB:?}"
[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; exit 77; }
[ -d /sys/devices/system/cpu/cpu0/cpuidle ] || { echo "SKIP: no cpuidle"; exit 77; }
command -v cpupower >/dev/null 2>&1 || { echo "SKIP: no cpupower"; exit 77; }
tmp=$(mktemp -d /tmp/states-cpupower.XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT

# cpupower: a "NAME:" line followed by "Flags/Description:", then
# "Latency: N" further down.  Print "NAME|LATENCY".
cpupower -c 0 idle-info 2>/dev/null | awk '
	/^Flags\/Description:/ { name = prev; sub(/:$/, "", name) }
	/^Latency:/ && name != "" { print name "|" $2; name = "" }
	{ prev = $0 }' >"$tmp/cpupower"
"$IDLELAB" states --cpu 0 --format csv | awk -F, 'NR > 1 { print $2 "|" $4 }' \
	>"$tmp/idlelab" || exit 1
[ -s "$tmp/cpupower" ] || { echo "SKIP: cpupower shows no states"; exit 77; }
if ! cmp -s "$tmp/cpupower" "$tmp/idlelab"; then
	echo "FAIL: cpupower and idlelab differ"
	diff "$tmp/cpupower" "$tmp/idlelab"
	exit 1
fi
echo "same states as cpupower: $(tr '\n' ' ' <"$tmp/idlelab")"
exit 0
