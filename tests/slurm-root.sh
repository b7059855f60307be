#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A sweep through a real Slurm (doc/cluster.md): a one-node cluster on
# this host (munged on its own socket and key, slurmctld and slurmd on
# private ports, all state in a temporary directory), a sweep of 24
# configurations over the bundled traces submitted as a job array of 3
# shards with contrib/slurm/idlelab-sweep.sbatch, merged, and compared
# with the unsharded sweep.  Every daemon it started is stopped.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root"
for p in munged slurmctld slurmd sbatch sinfo scontrol; do
	command -v $p >/dev/null 2>&1 ||
		skip "$p not installed (slurmctld slurmd slurm-client munge)"
done
tmpdir
chmod 700 "$T"
export SLURM_CONF=$T/slurm.conf
# the daemons stopped (at exit, or before the end to see them stop)
cleanup() {
	[ -f "$T/slurmctld.pid" ] && scontrol shutdown >/dev/null 2>&1
	for p in slurmd slurmctld munged; do
		[ -f "$T/$p.pid" ] || continue
		pid=$(cat "$T/$p.pid")
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			[ $i = 10 ] && kill "$pid" 2>/dev/null
			sleep 0.1; i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	rm -rf "$T"
}

free_port() {	# a TCP port nobody listens on
	p=$(( ($$ % 2000) * 4 + 20000 + $1 ))
	while ss -ltn 2>/dev/null | grep -q ":$p "; do p=$((p + 7)); done
	echo $p
}
H=$(hostname -s)
mkdir -p "$T/state" "$T/spool" "$T/log" "$T/parts"
dd if=/dev/urandom of="$T/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge.key"
munged -f --socket="$T/munge.sock" --key-file="$T/munge.key" \
	--log-file="$T/log/munged.log" --pid-file="$T/munged.pid" \
	--seed-file="$T/munged.seed" || fatal "munged"
cat >"$SLURM_CONF" <<CONF
ClusterName=idlelabtest
SlurmctldHost=$H
AuthType=auth/munge
AuthInfo=socket=$T/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port 0)
SlurmdPort=$(free_port 1)
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$H CPUs=$(nproc) State=UNKNOWN
PartitionName=idlelab Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i || { echo "FAIL: slurmctld"; cat "$T/log/slurmctld.log"; exit 1; }
slurmd || { echo "FAIL: slurmd"; cat "$T/log/slurmd.log"; exit 1; }
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	i=$((i + 1))
	[ $i -gt 100 ] && { echo "FAIL: the node never became idle"; tail "$T"/log/*; exit 1; }
	sleep 0.2
done
ok "a one-node cluster: $(sinfo -h -o '%P %D %t')"

# 6 + 8 + 6 + 4 = 24 configurations over the bundled traces
set -- -g 'menu:decay=4|8|16,intervals=8|16' \
	-g 'teo:pulse=256..1024/256,decay_shift=2|3' \
	-g 'ladder:promotion_count=2|4|8,demotion_count=1|2' \
	-g 'haltpoll:guest_halt_poll_ns=0|50000|100000|200000' \
	"$top_srcdir"/traces/data/*.idl
IDL=$(cd "$(dirname "$IDLELAB")" && pwd)/$(basename "$IDLELAB")
t0=$(date +%s.%N)
sbatch --wait --array=1-3 --export="ALL,IDLELAB=$IDL" \
	-o "$T/log/task-%a.out" \
	"$top_srcdir/contrib/slurm/idlelab-sweep.sbatch" "$T/parts" "$@" \
	>"$T/sbatch.out" 2>&1 || { bad "sbatch: $(cat "$T/sbatch.out" "$T"/log/task-*.out)"; exit 1; }
t1=$(date +%s.%N)
ls "$T/parts"/part-*-of-3.json >/dev/null 2>&1 &&
	ok "3 array tasks wrote their shards ($(awk -v a=$t0 -v b=$t1 "BEGIN{printf \"%.1f\", b-a}") s)" ||
	bad "shards missing: $(ls "$T/parts")"
sbatch --wait --export="ALL,IDLELAB=$IDL" -o "$T/log/merge.out" \
	"$top_srcdir/contrib/slurm/idlelab-merge.sbatch" "$T/parts" 3 "$T/merged.json" \
	>/dev/null 2>&1 || bad "merge job: $(cat "$T/log/merge.out")"
t2=$(date +%s.%N)
"$IDLELAB" sweep -o "$T/all.json" "$@" || bad "unsharded sweep"
t3=$(date +%s.%N)
sed 's/"created": "[^"]*"//' "$T/merged.json" >"$T/m"
sed 's/"created": "[^"]*"//' "$T/all.json" >"$T/a"
n=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['sweep']['cells_total'])" "$T/all.json")
cmp -s "$T/m" "$T/a" && ok "merged shards = the unsharded sweep ($n cells; Slurm $(awk -v a=$t0 -v b=$t2 "BEGIN{printf \"%.1f\", b-a}") s, one process $(awk -v a=$t2 -v b=$t3 "BEGIN{printf \"%.1f\", b-a}") s)" ||
	bad "merged shards differ from the unsharded sweep"
# the daemons stop with the test, and are seen to stop
pids=$(cat "$T"/*.pid 2>/dev/null)
trap - EXIT INT TERM HUP
cleanup
left=
for pid in $pids; do
	kill -0 "$pid" 2>/dev/null && left="$left $pid"
done
[ -z "$left" ] && ok "slurmctld, slurmd and munged stopped" ||
	bad "daemons still running:$left"
finish
