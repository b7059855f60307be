#!/bin/sh
# Workloads nobody here wrote, recorded by `idlelab record` in the lab
# guest (doc/lab.md, "Workloads nobody here wrote"): runs inside the
# guest, as root, by `lab/lab.sh run -x`.  Under each governor of GOVS
# the kernel offers, each workload of WORK is recorded without and with
# --probe-inputs:
#   rec-GOV.NAME.idl, rec-GOV-probed.NAME.idl   (lab.sh replay scores them)
#   rec-GOV-probed.NAME.txt                      its raw events (--raw)
#   rec-GOV[-probed].NAME.log                    record's summary
#   summary                                       one line per recording
# The workloads (SECS seconds each, default 5):
#   cyclictest  rt-tests' cyclictest, one thread, 1 ms interval
#   hackbench   rt-tests' hackbench, pipes, 1 group, loops until SECS
#   stress-timer, stress-sleep, stress-pipe   stress-ng's timer (2 kHz),
#               sleep and pipe stressors, one instance each
#   usleep      a busybox shell loop of usleep over 50 us .. 6 ms
# Settings (lab.sh run -E NAME=VALUE): GOVS ("menu ladder"), WORK (all
# of the above, comma-separated), SECS.
set -u
SYS=/sys/devices/system/cpu
cd "$OUT" || exit 1
: "${GOVS:=menu ladder}" "${SECS:=5}"
: "${WORK:=cyclictest,hackbench,stress-timer,stress-sleep,stress-pipe,usleep}"
GOVS=$(echo "$GOVS" | tr , ' ')
fail=0

say() {
	echo "$*" >> summary
	echo "lab: [$(cut -d' ' -f1 /proc/uptime)] $*" > /dev/console
}
G0=$(cat $SYS/cpuidle/current_governor)
# the table the kernel registered, for importing the raw events
idlelab states --save states.table > /dev/null

# a shell loop of short sleeps: what a user's script does
usleep_loop() {
	end=$(($(cut -d. -f1 /proc/uptime) + SECS))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
		for us in 50 120 300 700 1500 3000 6000 90 2200 450; do
			usleep $us
		done
	done
}

# run_work NAME: the workload NAME in the foreground
run_work() {
	case $1 in
	cyclictest) cyclictest -q -t1 -i 1000 -D "$SECS" > /dev/null ;;
	hackbench)
		end=$(($(cut -d. -f1 /proc/uptime) + SECS))
		while [ "$(cut -d. -f1 /proc/uptime)" -lt $end ]; do
			hackbench -p -g 1 -l 200 > /dev/null
			usleep 50000
		done ;;
	stress-timer) stress-ng -q --timer 1 --timer-freq 2000 -t "$SECS" ;;
	stress-sleep) stress-ng -q --sleep 1 -t "$SECS" ;;
	stress-pipe) stress-ng -q --pipe 1 -t "$SECS" ;;
	usleep) usleep_loop ;;
	*) echo "no workload $1" >&2; return 2 ;;
	esac
}

# the recorder runs this script again for one workload
if [ "${1:-}" = --run ]; then
	run_work "$2"
	exit
fi

for g in $GOVS; do
	grep -qw "$g" $SYS/cpuidle/available_governors || continue
	echo "$g" > $SYS/cpuidle/current_governor
	for w in $(echo "$WORK" | tr , ' '); do
		for probed in "" -probed; do
			f=rec-$g$probed.$w
			opt=
			# the probed recording's raw events too: without its
			# probe lines, the events alone of the same run
			[ -z "$probed" ] || opt="--probe-inputs --raw $f.txt"
			# shellcheck disable=SC2086
			if idlelab record $opt -o "$f.idl" -- \
				sh "$0" --run "$w" > "$f.log" 2>&1; then
				say "$f: $(grep 'idle periods' "$f.log" | tail -1)"
			else
				say "FAIL: $f: $(tail -1 "$f.log")"
				fail=1
			fi
		done
	done
done
echo "$G0" > $SYS/cpuidle/current_governor
exit $fail
