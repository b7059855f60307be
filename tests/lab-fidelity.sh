#!/bin/sh
# Replay fidelity on a real kernel that must choose between several idle
# states (doc/lab.md): Debian's arm64 6.12 under qemu-system-aarch64, the
# four states of lab/tables/arm4.table in its device tree, two vCPUs.
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
	gov=$1 out=$2 probes=
	# menu from the events alone (what import derives of its sleep
	# lengths is judged); ladder with the probe inputs, the default
	[ $gov = menu ] && probes=--no-probe-inputs
	if ! bash "$LAB" capture -k 6.12 -t "$top_srcdir/lab/tables/arm4.table" \
		-n 2 -g $gov -w "spread 1500" -s "$S" -o "$out" $probes \
		>"$out.log" 2>&1; then
		bad "$gov: capture"
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
for gov in menu ladder; do
	echo "$gov, Debian 6.12 arm64, arm4 table, 2 vCPUs, spread 1500 us x ${S} s:"
	capture_and_replay $gov "$T/$gov"
	case $? in
	0|1) ;;	# (1: a failed capture, said and counted)
	2)
		echo "  (below 99.5%: a second capture)"
		capture_and_replay $gov "$T/$gov-2" ||
			bad "$gov: agreement below 99.5%, twice"
		;;
	esac
done
finish
