#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make bench`, import: idlelab import timed beside reference tools on the
# same input, each figure printed as a ratio to its reference (goals of
# issue 14: at most 1.0 of idlestat --import, at most 2.5 of grep -c
# cpu_idle, at most 1.0 of trace-cmd report to /dev/null).  A reference
# that cannot run here (not installed, not root) is reported as skipped.
#
# Inputs, made here in a temporary directory:
#  - text: the real capture tests/bench/menu-pingpong.txt.xz (ftrace text
#    of this project's development VM, 2 vCPUs with cpuidle-haltpoll,
#    menu governor, 5 s of tests/idle-workload pingpong 200; 164,855
#    events), repeated BENCH_IMPORT_COPIES times (default 23: ~460 MB)
#    with shifted timestamps by repeat.awk, under a header that both
#    idlestat and idlelab read;
#  - trace.dat (as root, with trace-cmd): BENCH_DAT_SECONDS (default 20)
#    of tests/idle-workload pingpong 200 recorded live in a tracefs
#    instance and extracted with trace-cmd extract.
# Each command runs BENCH_RUNS times (default 5); the fastest run counts
# (the machine may be shared: the load average is printed).
set -u
IDLELAB=${IDLELAB:-./idlelab}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
COPIES=${BENCH_IMPORT_COPIES:-23}
DAT_SECS=${BENCH_DAT_SECONDS:-20}
RUNS=${BENCH_RUNS:-5}
MACHINE=vm-haltpoll	# the C-state table of the captures' machine
WORKLOAD=${BENCH_WORKLOAD:-tests/idle-workload}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/idlelab-bench-import.XXXXXX")
inst=
cleanup() {
	if [ -n "$inst" ]; then
		rmdir "/sys/kernel/tracing/instances/$inst" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# best NAME CMD...: run CMD RUNS times, its output to $OUT (a file by
# default: GNU grep stops at the first match when it writes to
# /dev/null); NAME_s is the fastest wall time, NAME_cpu its user+system
# time, NAME_kb its peak RSS.
OUT=
best() {
	name=$1
	shift
	b=
	i=0
	while [ $i -lt "$RUNS" ]; do
		i=$((i + 1))
		if ! /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@" \
			>"${OUT:-$tmp/out}" 2>"$tmp/err"; then
			eval "${name}_s="
			return 1
		fi
		read -r w u s kb <"$tmp/time"
		if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN{exit !(a < b)}'
		then
			b=$w
			eval "${name}_cpu=$(awk -v u="$u" -v s="$s" \
				'BEGIN{printf "%.2f", u + s}')"
			eval "${name}_kb=$kb"
		fi
	done
	eval "${name}_s=$b"
}

# row LABEL SECONDS [NAME=REF_SECONDS[:GOAL]]...: a line of the table,
# the time then its ratio to each reference (and the goal for it)
row() {
	printf '  %-30s %6.2f s' "$1" "$2"
	t=$2
	shift 2
	sep='   '
	for r; do
		awk -v t="$t" -v n="${r%%=*}" -v r="${r#*=}" -v s="$sep" '
		BEGIN {
			g = index(r, ":") ? substr(r, index(r, ":") + 1) : ""
			printf "%s%.2f x %s", s, t / r, n
			if (g != "")
				printf " (goal <= %s)", g
		}'
		sep=', '
	done
	echo
}

# skipped LABEL WHY
skipped() {
	printf '  %-30s skipped (%s)\n' "$1" "$2"
}

text_bench() {
	if ! command -v xz >/dev/null 2>&1; then
		echo "text import: skipped (xz not installed)"
		return 0
	fi
	cap=$tmp/capture.txt
	n=$(xz -dc "$SRC/tests/bench/menu-pingpong.txt.xz" |
		awk -v n="$COPIES" -v hz=250 -f "$SRC/tests/bench/repeat.awk" |
		tee "$tmp/body" | wc -l)
	# idlestat takes the CPU count from the last "#" line's "#P:N"
	{
		echo "# tracer: nop"
		echo "# entries-in-buffer/entries-written: $n/$n   #P:2"
		cat "$tmp/body"
	} >"$cap"
	rm -f "$tmp/body"
	idle=$(grep -c cpu_idle "$cap")
	echo "text input: tests/bench/menu-pingpong.txt.xz x $COPIES," \
	     "$(($(wc -c <"$cap") / 1000000)) MB, $n events, $idle cpu_idle"
	best grep grep -c cpu_idle "$cap"
	best imp "$IDLELAB" import "$cap" -o "$tmp/t.idl" -m $MACHINE -q
	best imp1 env IDLELAB_IMPORT_THREADS=1 "$IDLELAB" import "$cap" \
		-o "$tmp/t1.idl" -m $MACHINE -q
	if [ -z "$imp_s" ] || [ -z "$imp1_s" ] || [ -z "$grep_s" ]; then
		echo "text import failed: $(cat "$tmp/err")"
		return 1
	fi
	row "grep -c cpu_idle" "$grep_s"
	if ! command -v idlestat >/dev/null 2>&1; then
		skipped "idlestat --import" "idlestat not installed"
		ids=
	elif ! best ids idlestat --import -f "$cap"; then
		skipped "idlestat --import" "it failed: $(head -n1 "$tmp/err")"
		ids=
	else
		row "idlestat --import" "$ids_s"
		ids=idlestat=$ids_s
	fi
	row "idlelab import" "$imp_s" ${ids:+"$ids:1.0"} "grep=$grep_s:2.5"
	row "idlelab import, one thread" "$imp1_s" ${ids:+"$ids"} \
		"grep=$grep_s"
	echo "  (idlelab import: $imp_cpu s of CPU, peak RSS $imp_kb KB)"
	rm -f "$cap" "$tmp"/*.idl
}

# Record DAT_SECS of pingpong into $tmp/trace.dat; 1 if it cannot be.
record_dat() {
	T=/sys/kernel/tracing
	[ "$(id -u)" = 0 ] && [ -d $T/instances ] &&
		command -v trace-cmd >/dev/null 2>&1 && [ -x "$WORKLOAD" ] ||
		return 1
	inst=idlelab-bench-$$
	mkdir $T/instances/$inst || return 1
	D=$T/instances/$inst
	echo 0 >$D/tracing_on
	echo 131072 >$D/buffer_size_kb
	for e in power/cpu_idle power/cpu_idle_miss timer/hrtimer_start \
		timer/hrtimer_cancel timer/hrtimer_expire_entry \
		timer/timer_start timer/timer_cancel \
		timer/timer_expire_entry timer/tick_stop \
		irq/irq_handler_entry ipi/ipi_send_cpu ipi/ipi_send_cpumask \
		sched/sched_wakeup; do
		[ -e $D/events/$e/enable ] && echo 1 >$D/events/$e/enable
	done
	echo 1 >$D/tracing_on
	"$WORKLOAD" pingpong 200 "$DAT_SECS"
	echo 0 >$D/tracing_on
	# extract removes the instance
	trace-cmd extract -B $inst -o "$tmp/trace.dat" >/dev/null 2>&1
	rmdir $D 2>/dev/null
	inst=
	[ -s "$tmp/trace.dat" ]
}

dat_bench() {
	if ! record_dat; then
		echo "trace.dat input: none"
		skipped "trace-cmd report" \
			"recording needs root, tracefs, trace-cmd, $WORKLOAD"
		return 0
	fi
	OUT=/dev/null
	best rep trace-cmd report -i "$tmp/trace.dat"
	OUT=
	n=$(($(trace-cmd report -i "$tmp/trace.dat" 2>/dev/null | wc -l) - 1))
	best dat "$IDLELAB" import "$tmp/trace.dat" -o "$tmp/d.idl" \
		-m $MACHINE -q
	echo "trace.dat input: $DAT_SECS s of pingpong recorded here," \
	     "$(($(wc -c <"$tmp/trace.dat") / 1000)) kB, $n events"
	if [ -z "$rep_s" ] || [ -z "$dat_s" ]; then
		echo "trace.dat import failed: $(cat "$tmp/err")"
		return 1
	fi
	row "trace-cmd report >/dev/null" "$rep_s"
	row "idlelab import" "$dat_s" "trace-cmd report=$rep_s:1.0"
}

if [ ! -x /usr/bin/time ]; then
	echo "import benchmark: skipped (/usr/bin/time not installed)"
	exit 0
fi
echo "import benchmark (fastest of $RUNS runs; load average" \
     "$(cut -d' ' -f1-3 /proc/loadavg) before)"
status=0
text_bench || status=1
dat_bench || status=1
exit $status
