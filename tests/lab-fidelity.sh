#!/bin/sh
# Replay fidelity on a real kernel that must choose between several idle
# states (doc/lab.md): Debian's arm64 6.12 under qemu-system-aarch64, the
# four states of lab/tables/arm4.table in its device tree, two vCPUs;
# and Debian's amd64 6.12 under qemu-system-x86_64, POLL and the three
# ACPI C-states of lab/tables/x86-client.table (SKIPped alone when
# qemu-system-x86 or iasl is missing).
# One capture under menu and one under ladder (the governors Debian's
# kernel has), each traced from boot and, during the workload, as a
# user's capture of a running machine (tracefs text and trace.dat: menu's
# from the events alone, ladder's with the probe inputs); the kernel's
# own governor file (from linux-source-6.12, `governor build`) must
# agree with the kernel's states, tick stops and miss classes on at
# least 99.5% of the entries of each (lab/lab.sh replay; a capture that
# falls short is taken again once, see below).  SKIP when the
# lab's packages are missing (./quickstart check installs them) or the
# kernel package cannot be fetched.  LAB_SECONDS sets the workload's
# length (default 8).
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
LAB=$top_srcdir/lab/lab.sh
S=${LAB_SECONDS:-8}
lab_prologue

# one capture and its replay; 1 if the capture failed, 2 if agreement
# is below the bar
capture_and_replay() {
	arch=$1 table=$2 gov=$3 out=$4 probes=
	# menu from the events alone (what import derives of its sleep
	# lengths is judged); ladder with the probe inputs, the default
	[ $gov = menu ] && probes=--no-probe-inputs
	if ! bash "$LAB" --arch $arch capture -k 6.12 \
		-t "$top_srcdir/lab/tables/$table.table" -n 2 -g $gov \
		-w "spread 1500" -s "$S" -o "$out" $probes \
		>"$out.log" 2>&1; then
		bad "$arch $gov: capture"
		cat "$out.log" "$out/console.log" 2>/dev/null | tail -20
		return 1
	fi
	bash "$LAB" replay "$out" >"$out.replay" 2>&1
	rc=$?
	sed 's/^/  /' "$out.replay"
	[ $rc = 0 ] || return 2
}

# A capture whose agreement falls just short (issue 29: about 1 capture
# in 4 on a loaded 2-core machine lands at 99.4-99.5% on one column) is
# taken again once, both shown; the second must pass.
machines="arm64:arm4"
if ! command -v qemu-system-x86_64 >/dev/null || ! command -v iasl >/dev/null
then
	echo "(x86_64: no qemu-system-x86_64 or iasl, left out;" \
	     "./quickstart check installs them)"
elif ! bash "$LAB" --arch x86_64 fetch 6.12 >"$T/fetch-x86.log" 2>&1; then
	bad "lab fetch, x86_64: $(tail -1 "$T/fetch-x86.log")"
else
	machines="$machines x86_64:x86-client"
fi
for m in $machines; do
	arch=${m%%:*} table=${m#*:}
	for gov in menu ladder; do
		echo "$gov, Debian 6.12 $arch, $table table, 2 vCPUs," \
		     "spread 1500 us x ${S} s:"
		capture_and_replay $arch $table $gov "$T/$arch-$gov"
		case $? in
		0|1) ;;	# (1: a failed capture, said and counted)
		2)
			echo "  (below 99.5%: a second capture)"
			capture_and_replay $arch $table $gov \
				"$T/$arch-$gov-2" ||
				bad "$arch $gov: agreement below 99.5%, twice"
			;;
		esac
	done
done
finish
