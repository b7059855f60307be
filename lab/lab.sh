#!/usr/bin/env bash
# idlelab's lab: real kernels (Debian's) under QEMU, arm64 (virt, the
# idle states of a table file in its device tree) or x86_64 (q35, the
# states as ACPI _CST objects, after the kernel's POLL), so that replay
# can be checked against kernels that must choose between several
# states.  doc/lab.md has the whole story.
#
#   lab/lab.sh [--arch arm64|x86_64] COMMAND ...
#                                     the architecture (default arm64,
#                                     or LAB_ARCH); replay reads it from
#                                     the capture
#   lab/lab.sh fetch [VERSION...]     kernels (6.12, 6.1), busybox, the
#                                     kernels' governor sources
#   lab/lab.sh capture [options] -o DIR
#                                     boot, run a workload, bring back the
#                                     traces, the guest's sysfs and table
#   lab/lab.sh run [options] -x SCRIPT -o DIR
#                                     boot with idlelab itself (lab/cross.sh)
#                                     and run SCRIPT in the guest as root
#   lab/lab.sh replay DIR             import and replay a capture, print
#                                     the agreement with the kernel (the
#                                     live governor and the kernel's own
#                                     governor file); status 1 if the
#                                     running machine's traces are below
#                                     99.5%
set -euo pipefail

LAB=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$LAB")
CACHE=${IDLELAB_LAB_CACHE:-/var/cache/idlelab/lab}
IDLELAB=${IDLELAB:-$TOP/idlelab}
ARCH=${LAB_ARCH:-arm64}

# set_arch ARCH: what differs between the lab's two architectures.
# arm64: Debian's arm64 kernels on QEMU's virt board, idle states in its
# device tree (PSCI); x86_64: Debian's cloud-amd64 kernels on QEMU's q35,
# idle states as ACPI _CST objects of one more SSDT (acpi_idle, with the
# kernel's POLL as state 0).  $ACACHE is the architecture's part of the
# cache (arm64's is the cache itself, as it always was).
set_arch() {
	case $1 in
	arm64|aarch64)
		ARCH=arm64 DEBARCH=arm64 TRIPLET=aarch64-linux-gnu
		LDSO=ld-linux-aarch64.so.1 ACACHE=$CACHE KNAME=Image
		GUEST_CC=${CROSS_CC:-aarch64-linux-gnu-gcc}
		QEMU=${QEMU:-qemu-system-aarch64}
		IMAGE_RE=-arm64-unsigned CONSOLE=ttyAMA0
		DRIVER_INIT=psci_idle_init
		DEFAULT_TABLE=$LAB/tables/arm4.table ;;
	x86_64|x86|amd64)
		ARCH=x86_64 DEBARCH=amd64 TRIPLET=x86_64-linux-gnu
		LDSO=ld-linux-x86-64.so.2 ACACHE=$CACHE/x86_64 KNAME=vmlinuz
		GUEST_CC=${HOST_CC:-gcc}
		QEMU=${QEMU_X86:-qemu-system-x86_64}
		IMAGE_RE=-cloud-amd64-unsigned CONSOLE=ttyS0
		DRIVER_INIT=acpi_processor_driver_init
		DEFAULT_TABLE=$LAB/tables/x86-client.table ;;
	*) die "unknown architecture '$1' (arm64 or x86_64)" ;;
	esac
}

# What a capture traces, from boot and in the mid-run instance: the events
# doc/importing.md reads (sched_switch too; --events takes others).
EVENTS="power/cpu_idle power/cpu_idle_miss power/pm_qos_update_target
	power/pm_qos_add_request power/pm_qos_update_request
	power/pm_qos_remove_request power/dev_pm_qos_add_request
	power/dev_pm_qos_update_request power/dev_pm_qos_remove_request
	timer/hrtimer_start timer/hrtimer_cancel
	timer/hrtimer_expire_entry timer/tick_stop timer/timer_start
	timer/timer_cancel timer/timer_expire_entry irq/irq_handler_entry
	irq/irq_handler_exit irq/softirq_entry irq/softirq_exit
	ipi/ipi_send_cpu ipi/ipi_send_cpumask sched/sched_wakeup
	sched/sched_switch irq_vectors/local_timer_entry
	irq_vectors/local_timer_exit irq_vectors/reschedule_entry
	irq_vectors/reschedule_exit irq_vectors/call_function_entry
	irq_vectors/call_function_exit irq_vectors/call_function_single_entry
	irq_vectors/call_function_single_exit irq_vectors/irq_work_entry
	irq_vectors/irq_work_exit"

die() {
	echo "lab: $*" >&2
	exit 2
}

usage() {
	sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
	cat <<'EOF'
capture options:
  -k, --kernel VER     6.12 (default) or 6.1 (Debian's arm64 kernels,
                       fetched first), or the path of an arm64 Image
  -t, --table FILE     idle states (default lab/tables/arm4.table, on
                       x86_64 lab/tables/x86-client.table); state 0
                       must be WFI 1/1 (arm64) or POLL (x86_64, where
                       each residency is the same multiple of its
                       latency: processor.latency_factor)
  -n, --cpus N         vCPUs, 2 or more (default 2)
  -g, --governor G     the kernel's governor from boot (default menu)
  -w, --workload "MODE US"
                       tests/idle-workload's mode and time (default
                       "spread 1500")
  -s, --seconds S      workload length (default 10)
  -e, --events LIST    events of the mid-run capture (default: all that
                       import reads), SUBSYSTEM/EVENT, blank-separated
  -c, --clock CLOCK    trace clock of the mid-run capture (default mono,
                       as idlelab record uses; local is ftrace's default)
      --kprobe DEF     a kprobe_events line, traced in the mid-run capture
                       (repeatable): e.g. 'r:lab_sleep
                       tick_nohz_get_sleep_length ret=$retval:s64', the
                       sleep length the governor got
      --no-probe-inputs
                       leave out the kprobes that give import the
                       kernel's own sleep lengths, residencies and got_tick
                       flags (doc/importing.md, "Probed inputs"): the
                       events alone, as a plain capture has them.  By
                       default they are traced where the kernel takes
                       them (DIR/probes says which)
  -o DIR               where the capture goes (created)
      --no-icount      guest time is the host's (plain TCG): every kernel
                       path takes tens of times longer than on hardware
      --rcu-on-cpus    RCU callbacks stay on the CPUs (no rcu_nocbs=):
                       the tick then stays on for them, which no trace
                       event shows
run options: -k, -t, -n, -g, --no-icount and --rcu-on-cpus as for capture,
and
  -x, --script FILE    the script the guest runs (sh, as root); it finds
                       idlelab on PATH, the project's tests/*.sh in
                       /lab/tests, and writes what should come back to $OUT
  -E, --env NAME=VALUE set NAME in the script's environment (blank-free
                       values; repeatable)
  -l, --limit S        stop the guest after S seconds (default 1200)
  -o DIR               where the guest's $OUT goes (created)
Environment: IDLELAB_LAB_CACHE (default /var/cache/idlelab/lab), QEMU
and CROSS_CC (arm64), QEMU_X86 and HOST_CC (x86_64), IDLELAB (the
idlelab binary for replay), LAB_ARCH, LAB_QEMU_ARGS (more QEMU
options).
EOF
}

# newest_image SERIES: the architecture's image package of Debian's
# linux-source SERIES, at the source package's own version (so the
# governor files built from it are the ones that ran).
newest_image() {
	local ver pkg
	ver=$(dpkg-query -W -f='${Version}' "linux-source-$1" 2>/dev/null) ||
		die "linux-source-$1 is not installed (apt-get install linux-source-$1)"
	local re="^linux-image-$1[.0-9]*(\+deb[0-9]+)?(-[0-9]+)?"

	for pkg in $(apt-cache pkgnames linux-image- |
		     grep -E "$re$IMAGE_RE\$" | sort -V -r); do
		# grep reads it all: -q would end the pipe early (pipefail)
		if apt-cache show "$pkg:$DEBARCH" 2>/dev/null |
		   grep -x "Version: $ver" >/dev/null; then
			echo "$pkg"
			return
		fi
	done
	die "no $DEBARCH image of version $ver" \
	    "(dpkg --add-architecture $DEBARCH; apt-get update)"
}

# fetch_kernel SERIES: $ACACHE/SERIES/{Image or vmlinuz,config,version,
# governors/,modules/}
fetch_kernel() {
	local s=$1 d=$ACACHE/$1 pkg tmp src
	[ -f "$d/$KNAME" ] && [ -f "$d/governors/menu.c" ] &&
		[ -d "$d/modules" ] && return
	pkg=$(newest_image "$s")
	mkdir -p "$ACACHE"
	tmp=$(mktemp -d "$ACACHE/fetch.XXXXXX")
	echo "lab: fetching $pkg" >&2
	(cd "$tmp" && apt-get download -q "$pkg:$DEBARCH" >/dev/null 2>&1) ||
		{ rm -rf "$tmp"; die "apt-get download $pkg:$DEBARCH failed"; }
	dpkg-deb -x "$tmp"/*.deb "$tmp/x"
	mkdir -p "$tmp/k/governors"
	mv "$tmp"/x/boot/vmlinuz-* "$tmp/k/$KNAME"
	mv "$tmp"/x/boot/config-* "$tmp/k/config"
	# where virtio-serial is modular (6.1; amd64's virtio core too), the
	# guest loads these
	mkdir -p "$tmp/k/modules"
	for f in virtio/virtio virtio/virtio_ring \
		 virtio/virtio_pci_legacy_dev virtio/virtio_pci_modern_dev \
		 virtio/virtio_pci char/virtio_console; do
		cp "$tmp"/x/lib/modules/*/kernel/drivers/$f.ko "$tmp/k/modules/" \
			2>/dev/null || true
	done
	dpkg-query -W -f='${Version}\n' "linux-source-$s" > "$tmp/k/version"
	# The governor sources of the same release, for `governor build`.
	src=/usr/src/linux-source-$s.tar.xz
	tar -xJf "$src" -C "$tmp" --wildcards \
		"linux-source-$s/drivers/cpuidle/governors/*.c" ||
		{ rm -rf "$tmp"; die "cannot read $src"; }
	mv "$tmp/linux-source-$s"/drivers/cpuidle/governors/*.c \
		"$tmp/k/governors/"
	rm -rf "$d"
	mv "$tmp/k" "$d"
	rm -rf "$tmp"
}

fetch_busybox() {
	local tmp
	[ -x "$ACACHE/busybox" ] && return
	mkdir -p "$ACACHE"
	tmp=$(mktemp -d "$ACACHE/fetch.XXXXXX")
	(cd "$tmp" &&
	 apt-get download -q "busybox-static:$DEBARCH" >/dev/null 2>&1) ||
		{ rm -rf "$tmp"
		  die "apt-get download busybox-static:$DEBARCH failed"; }
	dpkg-deb -x "$tmp"/*.deb "$tmp/x"
	mv "$tmp/x/bin/busybox" "$ACACHE/busybox"
	rm -rf "$tmp"
}

# trace-cmd and the libraries it loads, for binary captures (trace.dat,
# nanosecond times) in the guest: $ACACHE/tracecmd/ holds the files laid
# out as in the guest's root.
fetch_tracecmd() {
	local tmp d=$ACACHE/tracecmd f p
	[ -x "$d/usr/bin/trace-cmd" ] && return
	mkdir -p "$ACACHE"
	tmp=$(mktemp -d "$ACACHE/fetch.XXXXXX")
	(cd "$tmp" && for p in trace-cmd libtraceevent1 libtracefs1 libzstd1 \
			       libc6; do
		apt-get download -q "$p:$DEBARCH" >/dev/null 2>&1 || exit 1
	 done) ||
		{ rm -rf "$tmp"
		  die "apt-get download of trace-cmd:$DEBARCH and its" \
		      "libraries failed"; }
	for f in "$tmp"/*.deb; do
		dpkg-deb -x "$f" "$tmp/x"
	done
	mkdir -p "$tmp/t/usr/bin" "$tmp/t/lib/$TRIPLET" \
		"$tmp/t/usr/lib/$TRIPLET"
	cp -a "$tmp/x/usr/bin/trace-cmd" "$tmp/t/usr/bin/"
	# the loader where the binaries look for it: /lib (arm64), /lib64
	for p in lib lib64; do
		[ -e "$tmp/x/$p/$LDSO" ] || continue
		mkdir -p "$tmp/t/$p"
		cp -a "$tmp/x/$p/$LDSO" "$tmp/t/$p/"
	done
	cp -a "$tmp/x/lib/$TRIPLET/$LDSO" "$tmp/x/lib/$TRIPLET/libc.so.6" \
		"$tmp/t/lib/$TRIPLET/"
	cp -a "$tmp"/x/usr/lib/"$TRIPLET"/lib{traceevent,tracefs,zstd}.so.* \
		"$tmp/t/usr/lib/$TRIPLET/"
	rm -rf "$d"
	mv "$tmp/t" "$d"
	rm -rf "$tmp"
}

# The workload, static for the guest; rebuilt when its source changes.
build_workload() {
	local src=$TOP/tests/idle-workload.c out=$ACACHE/idle-workload
	local btf=$TOP/traces/record/btf.c err=$TOP/lib/error.c
	[ -x "$out" ] && [ "$out" -nt "$src" ] && [ "$out" -nt "$btf" ] &&
		[ "$out" -nt "$TOP/traces/record/btf.h" ] &&
		[ "$out" -nt "$err" ] && return
	command -v "$GUEST_CC" >/dev/null ||
		die "no $GUEST_CC (apt-get install gcc-$TRIPLET)"
	# btf.c and error.c want the build's config.h, and need nothing of it
	mkdir -p "$ACACHE/cross-include"
	: > "$ACACHE/cross-include/config.h"
	"$GUEST_CC" -O2 -static -I"$ACACHE/cross-include" -I"$TOP/lib" \
		-I"$TOP/traces/record" \
		-o "$out.tmp$$" "$src" "$btf" "$err" -lm
	mv "$out.tmp$$" "$out"
}

# One writer of the cache at a time: make check runs the lab's tests side
# by side, and each fetches what it needs.  Released at exit at the latest.
lock_cache() {
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
}

unlock_cache() {
	exec 9>&-
}

cmd_fetch() {
	lock_cache
	[ $# -gt 0 ] || set -- 6.12 6.1
	fetch_busybox
	fetch_tracecmd
	build_workload
	for s in "$@"; do
		case $s in 6.1|6.12) fetch_kernel "$s" ;;
		*) die "unknown kernel series '$s' (6.12 or 6.1)" ;;
		esac
	done
	unlock_cache
}

# dt_states TABLE: "NAME LATENCY_US RESIDENCY_US" of states 1.. (state 0
# is the driver's WFI).
dt_states() {
	awk '$1 == "state" && $2 > 0 {
		n = $3; gsub(/"/, "", n)
		print n, $4, $5
	}' "$1"
}

# make_dtb TABLE NCPUS OUT: QEMU's own device tree of the machine, with
# an idle-states node and every CPU pointing at its states.
make_dtb() {
	local table=$1 ncpu=$2 out=$3 i=0 name lat res entry ph list= c
	# -nic none here and at boot: the guest needs no network, and QEMU's
	# default NIC wants ipxe's ROM (a Recommends, not installed)
	"$QEMU" -machine "virt,gic-version=2,dumpdtb=$out" -cpu cortex-a57 \
		-smp "$ncpu" -m 1024 -nic none -nographic >/dev/null 2>&1 ||
		die "$QEMU could not dump the virt device tree"
	fdtput -c "$out" /cpus/idle-states
	fdtput -t s "$out" /cpus/idle-states entry-method psci
	while read -r name lat res; do
		i=$((i + 1))
		# whole microseconds: the DT has no finer unit
		case "$lat$res" in
		*[!0-9]*) die "$table: state $i: times must be whole us" \
			      "in the lab" ;;
		esac
		entry=$((lat / 4))
		ph=$((0x4c00 + i))
		c=/cpus/idle-states/$name
		fdtput -c "$out" "$c"
		fdtput -t s "$out" "$c" compatible arm,idle-state
		fdtput -t s "$out" "$c" idle-state-name "$name"
		# retention (bit 16 clear): QEMU answers with a WFI, and the
		# kernel keeps its context
		fdtput -t x "$out" "$c" arm,psci-suspend-param "$i"
		fdtput -t i "$out" "$c" entry-latency-us "$entry"
		fdtput -t i "$out" "$c" exit-latency-us "$((lat - entry))"
		fdtput -t i "$out" "$c" min-residency-us "$res"
		fdtput -t i "$out" "$c" phandle "$ph"
		list="$list $ph"
	done < <(dt_states "$table")
	[ $i -gt 0 ] || die "$table: no state above 0"
	for c in $(fdtget -l "$out" /cpus | grep '^cpu@'); do
		# shellcheck disable=SC2086
		fdtput -t i "$out" "/cpus/$c" cpu-idle-states $list
	done
}

# cst_states TABLE: "NAME LATENCY_US RESIDENCY_US" of states 1.. (state 0
# is the kernel's POLL).
cst_states() {
	awk '$1 == "state" && $2 == 0 && $3 != "POLL" {
		print "x"; exit
	}
	$1 == "state" && $2 > 0 {
		n = $3; gsub(/"/, "", n)
		print n, $4, $5
	}' "$1"
}

# make_ssdt TABLE NCPUS OUT: an SSDT that gives each of QEMU's processor
# objects (\_SB.CPUS.C000, C001, ...: hex) a _CST of the table's states
# 1.., each an FFH entry of type C1 with the state's exit latency.  The
# kernel's MWAIT probe finds no hint in them and enters each with HLT,
# keeping them apart; their target residency is the latency times
# processor.latency_factor, one factor for all, which $factor gets.
make_ssdt() {
	local table=$1 ncpu=$2 out=$3 i=0 c name lat res pkgs= asl=${3%.aml}.asl
	factor=
	while read -r name lat res; do
		[ "$name" != x ] ||
			die "$table: state 0 must be POLL on x86_64"
		i=$((i + 1))
		case "$lat$res" in
		*[!0-9]*) die "$table: state $i: times must be whole us" \
			      "in the lab" ;;
		esac
		[ "$lat" -gt 0 ] && [ $((res % lat)) = 0 ] ||
			die "$table: state $i: residency must be a whole" \
			    "multiple of its latency (processor.latency_factor)"
		[ -z "$factor" ] || [ "$factor" = $((res / lat)) ] ||
			die "$table: every state needs the same residency" \
			    "/ latency ratio (one processor.latency_factor)"
		factor=$((res / lat))
		pkgs="$pkgs
		Package () { ResourceTemplate () {
			Register (FFixedHW, 0, 0, 0, 0) }, 1, $lat, $((1000 - i)) },"
	done < <(cst_states "$table")
	[ $i -gt 0 ] || die "$table: no state above 0"
	[ $i -le 8 ] || die "$table: ACPI gives at most 8 C-states"
	{
		echo 'DefinitionBlock ("", "SSDT", 2, "IDLLAB", "LABCST", 1)'
		echo '{'
		for ((c = 0; c < ncpu; c++)); do
			printf '\tExternal (\\_SB.CPUS.C%03X, ProcessorObj)\n' $c
		done
		for ((c = 0; c < ncpu; c++)); do
			printf '\tScope (\\_SB.CPUS.C%03X) {\n' $c
			printf '\t\tName (_CST, Package () { %d,%s\n\t\t})\n\t}\n' \
				$i "${pkgs%,}"
		done
		echo '}'
	} > "$asl"
	iasl -p "${out%.aml}" "$asl" > "$asl.log" 2>&1 ||
		die "iasl failed on $asl: $(tail -3 "$asl.log")"
}

# make_firmware TABLE NCPUS TMP: the idle states for the guest's
# firmware: TMP/virt.dtb (arm64) or TMP/ssdt.aml (x86_64)
make_firmware() {
	if [ "$ARCH" = arm64 ]; then
		make_dtb "$1" "$2" "$3/virt.dtb"
	else
		make_ssdt "$1" "$2" "$3/ssdt.aml"
	fi
}

# guest_image KERNEL: the guest's pieces fetched or built; $img is the
# kernel's Image
guest_image() {
	lock_cache
	fetch_busybox
	fetch_tracecmd
	build_workload
	case $1 in
	6.1|6.12) fetch_kernel "$1"; img=$ACACHE/$1/$KNAME ;;
	6.12-teo)
		img=$ACACHE/$1/$KNAME
		[ -f "$img" ] || die "no $img (lab/build-kernel.sh builds it)" ;;
	*) [ -f "$1" ] || die "no kernel '$1'"; img=$1 ;;
	esac
	unlock_cache
}

# guest_root DIR: the initramfs tree every guest has
guest_root() {
	local r=$1
	mkdir -p "$r/bin" "$r/proc" "$r/sys" "$r/dev" "$r/tmp"
	cp "$LAB/guest/init" "$r/init"
	cp "$ACACHE/busybox" "$r/bin/busybox"
	cp "$ACACHE/idle-workload" "$r/bin/idle-workload"
	cp -a "$ACACHE/tracecmd/." "$r/"
	if [ -d "$(dirname "$img")/modules" ]; then
		mkdir -p "$r/lib/lab-modules"
		cp "$(dirname "$img")"/modules/*.ko "$r/lib/lab-modules/" \
			2>/dev/null || true
	fi
}

# guest_setup WHAT DESCRIPTION: the guest of capture and run (WHAT), from
# their options: the table and CPU count checked, the guest's pieces
# ($img), $out with dt.table, $tmp with virt.dtb and root/, $extra (the
# rcu_nocbs option), and a line that ends with DESCRIPTION.  The caller
# removes $tmp: a RETURN trap set here would fire as this one returns.
guest_setup() {
	local what=$1 desc=$2
	[ -f "$table" ] || die "$what: no table file '$table'"
	[ "$ncpu" -ge 2 ] 2>/dev/null ||
		die "$what: --cpus must be 2 or more (one CPU has no idle driver)"
	guest_image "$kernel"
	mkdir -p "$out"
	tmp=$(mktemp -d)
	make_firmware "$table" "$ncpu" "$tmp"
	guest_root "$tmp/root"
	# nocbs: RCU callbacks go to kthreads, so rcu_needs_cpu() never
	# keeps the tick (doc/lab.md)
	extra=
	[ -n "$rcu" ] && extra="rcu_nocbs=0-$((ncpu - 1))"
	[ -z "${factor:-}" ] || [ "$factor" = 2 ] ||
		extra="$extra processor.latency_factor=$factor"
	cp "$table" "$out/dt.table"
	echo "lab: $(basename "$img") $kernel, $ncpu vCPUs, $gov," \
	     "$(basename "$table"), $desc" >&2
}

# boot_guest WHAT IMG NCPUS TMP CMDLINE OUT LIMIT: boot TMP/root (as
# TMP/initrd) with TMP's firmware tables; the guest's tar stream
# unpacked in OUT; dies unless the guest says "ok 0" within LIMIT seconds.
# A guest whose kernel oopsed before it said anything is booted again,
# up to 3 times: Debian's amd64 6.1 under TCG without icount calls a
# NULL pointer from do_idle() at about 4 s of uptime in 3 of 33 boots
# here (the first console.log kept as console-oops.log).
boot_guest() {
	local try
	(cd "$4/root" && find . | cpio -o -H newc --quiet) > "$4/initrd"
	for try in 1 2 3; do
		rm -f "$6/out.tar"
		boot_once "$@"
		[ -s "$6/out.tar" ] || ! grep -q '^\[ *[0-9.]*\] BUG: ' \
			"$6/console.log" || [ $try = 3 ] && break
		echo "lab: $1: the guest's kernel oopsed; booting it again" >&2
		[ -f "$6/console-oops.log" ] ||
			cp "$6/console.log" "$6/console-oops.log"
	done
	tar -xf "$6/out.tar" -C "$6" ||
		die "$1: no output from the guest (see $6/console.log)"
	rm -f "$6/out.tar"
	case $(cat "$6/status") in
	ok\ 0) ;;
	*) die "$1: the guest says: $(cat "$6/status")" ;;
	esac
}

# boot_once, as boot_guest: one boot, the guest's tar stream in OUT.
boot_once() {
	local what=$1 img=$2 ncpu=$3 tmp=$4 cmdline=$5 out=$6 limit=$7 guest
	local machine
	# icount: the guest's clock advances 1 ns per instruction while it
	# runs, so kernel paths take about as long as on hardware
	cmdline="console=$CONSOLE rdinit=/init panic=-1 loglevel=4 $cmdline"
	if [ "$ARCH" = arm64 ]; then
		machine="-machine virt,gic-version=2 -cpu cortex-a57
			 -dtb $tmp/virt.dtb"
	else
		machine="-machine q35 -accel tcg -cpu max
			 -acpitable file=$tmp/ssdt.aml"
	fi
	# in the background, so that a signal to this script stops the guest
	# too: no guest outlives its run
	# shellcheck disable=SC2086
	timeout "$limit" "$QEMU" \
		$machine -smp "$ncpu" -m 1024 \
		$icount ${LAB_QEMU_ARGS:-} \
		-kernel "$img" -initrd "$tmp/initrd" \
		-append "$cmdline" \
		-display none -monitor none -no-reboot -nic none \
		-serial "file:$out/console.log" \
		-device virtio-serial-pci \
		-chardev "file,id=lab,path=$out/out.tar" \
		-device virtserialport,chardev=lab,name=lab &
	guest=$!
	trap 'kill "$guest" 2>/dev/null; exit 1' INT TERM HUP
	wait "$guest" ||
		die "$what: qemu failed or timed out (see $out/console.log)"
	trap - INT TERM HUP
}

# The kprobe_events lines of --probe-inputs for kernel $1.  The residency
# probe reads its argument's field: by name through BTF on 6.12; 6.1's
# kprobe events cannot, so there the guest puts the field's offset from
# the kernel's BTF in place of {cpuidle_device.last_residency_ns}.
probe_defs() {
	echo 'r:idlelab_sleep_length tick_nohz_get_sleep_length ns=$retval:s64'
	echo 'r:idlelab_got_tick tick_nohz_idle_got_tick tick=$retval:u8'
	if [ "$1" = 6.1 ]; then
		echo 'p:idlelab_residency cpuidle_reflect ns=+{cpuidle_device.last_residency_ns}($arg1):s64'
	else
		echo 'p:idlelab_residency cpuidle_reflect ns=dev->last_residency_ns:s64'
	fi
}

cmd_capture() {
	local kernel=6.12 table=$DEFAULT_TABLE ncpu=2 gov=menu
	local work="spread 1500" secs=10 events=$EVENTS out= img tmp boot
	# icount and rcu are read by boot_guest too
	local icount="-icount shift=0,sleep=on" rcu=yes extra cmdline
	local clock=mono kprobes= probes=yes
	while [ $# -gt 0 ]; do
		case $1 in
		-k|--kernel) kernel=$2; shift 2 ;;
		-t|--table) table=$2; shift 2 ;;
		-n|--cpus) ncpu=$2; shift 2 ;;
		-g|--governor) gov=$2; shift 2 ;;
		-w|--workload) work=$2; shift 2 ;;
		-s|--seconds) secs=$2; shift 2 ;;
		-e|--events) events=$2; shift 2 ;;
		-c|--clock) clock=$2; shift 2 ;;
		--kprobe) kprobes="$kprobes${kprobes:+
}$2"; shift 2 ;;
		--probe-inputs) probes=yes; shift ;;
		--no-probe-inputs) probes=; shift ;;
		-o) out=$2; shift 2 ;;
		--no-icount) icount=; shift ;;
		--rcu-on-cpus) rcu=; shift ;;
		-h|--help) usage; exit 0 ;;
		*) die "capture: unknown option '$1'" ;;
		esac
	done
	[ -n "$out" ] || die "capture: -o DIR is required"
	[ -n "$probes" ] && probes=$(probe_defs "$kernel")
	guest_setup capture "$work x ${secs}s"
	trap 'rm -rf "$tmp"' RETURN

	cat > "$tmp/root/lab.conf" <<EOF
LAB_WORKLOAD="$work"
LAB_SECONDS=$secs
LAB_EVENTS="$(echo $events)"
LAB_CLOCK=$clock
LAB_SETTLE=1
LAB_KPROBES='$kprobes'
LAB_PROBE_INPUTS='$probes'
EOF
	boot=$(echo $events initcall/initcall_start \
		initcall/initcall_finish | tr ' /' ',:')
	cmdline="cpuidle.governor=$gov $extra trace_event=$boot"
	boot_guest capture "$img" "$ncpu" "$tmp" "$cmdline trace_buf_size=16M" \
		"$out" $((secs * 10 + 300))
	[ "$(cat "$out/sysfs-before/cpuidle/current_governor")" = "$gov" ] ||
		die "capture: the guest's governor is" \
		    "$(cat "$out/sysfs-before/cpuidle/current_governor")," \
		    "not $gov"
	# From boot, the CPUs idle by default_idle_call() (traced as state 1,
	# no governor) until the driver registers: the governors' own
	# entries begin when the driver's init returns (psci_idle_init,
	# acpi_processor_driver_init).
	# 6.1's amd64 boot trace (no icount) begins at late_trace_init, after
	# every device initcall: all of it is the governor's.
	awk -v init="$DRIVER_INIT" '/^#/ && !on { print; next }
	     $0 ~ "initcall_finish: func=" init "\\+" ||
	     (!seen && /initcall_finish: func=late_trace_init\+/) { on = 1 }
	     /initcall_/ { seen = 1 }
	     on' "$out/boot.txt" > "$out/gov.txt"
	grep -q 'cpu_idle: ' "$out/gov.txt" ||
		die "capture: no idle entries after $DRIVER_INIT in" \
		    "$out/boot.txt"
	# The table the kernel registered, as idlelab reads sysfs.
	"$IDLELAB" states --sysfs-root "$out/sysfs-before" \
		--save "$out/states.table" >/dev/null
	echo "$gov" > "$out/governor"
	echo "$kernel" > "$out/kernel"
	echo "$ARCH" > "$out/arch"
	[ -f "$out/probes" ] &&
		echo "lab: probe inputs: $(grep -c '^taken' "$out/probes") of" \
		     "$(grep -c . "$out/probes") taken (see $out/probes)" >&2
	return 0
}

# run: idlelab itself in the guest (lab/cross.sh's tree), running a
# script as root on the multi-state machine; what the script leaves in
# $OUT comes back
cmd_run() {
	local kernel=6.12 table=$DEFAULT_TABLE ncpu=2 gov=menu
	local script= out= limit=1200 img tmp extra env=
	local icount="-icount shift=0,sleep=on" rcu=yes
	local root=$CACHE/arm64/root
	[ "$ARCH" = arm64 ] || root=$ACACHE/root
	while [ $# -gt 0 ]; do
		case $1 in
		-k|--kernel) kernel=$2; shift 2 ;;
		-t|--table) table=$2; shift 2 ;;
		-n|--cpus) ncpu=$2; shift 2 ;;
		-g|--governor) gov=$2; shift 2 ;;
		-x|--script) script=$2; shift 2 ;;
		-E|--env) env="$env $2"; shift 2 ;;
		-l|--limit) limit=$2; shift 2 ;;
		-o) out=$2; shift 2 ;;
		--no-icount) icount=; shift ;;
		--rcu-on-cpus) rcu=; shift ;;
		-h|--help) usage; exit 0 ;;
		*) die "run: unknown option '$1'" ;;
		esac
	done
	[ -n "$out" ] && [ -n "$script" ] || die "run: -x SCRIPT and -o DIR are required"
	[ -f "$script" ] || die "run: no script '$script'"
	[ -x "$root/usr/bin/idlelab" ] ||
		die "run: no $root/usr/bin/idlelab (lab/cross.sh builds it)"
	guest_setup run "$(basename "$script")"
	trap 'rm -rf "$tmp"' RETURN
	cp -a "$root/." "$tmp/root/"
	mkdir -p "$tmp/root/lab/tests"
	cp "$script" "$tmp/root/lab/script"
	cp "$TOP"/tests/*.sh "$tmp/root/lab/tests/"
	{ echo "LAB_SCRIPT=/lab/script"
	  for v in $env; do
		case $v in
		[A-Za-z_]*=*) echo "$v" ;;
		*) die "run: --env takes NAME=VALUE, not '$v'" ;;
		esac
	  done; } > "$tmp/root/lab.conf"
	# the kernel series first: `replay` scores what came back even when
	# the script failed
	echo "$kernel" > "$out/kernel"
	echo "$ARCH" > "$out/arch"
	boot_guest run "$img" "$ncpu" "$tmp" "cpuidle.governor=$gov $extra" \
		"$out" "$limit"
}

# kernel_governor SERIES GOV: the plugin of the kernel's own governor
# file, built once per cache
kernel_governor() {
	local src=$ACACHE/$1/governors/$2.c so=$ACACHE/$1/$2.so
	[ -f "$src" ] || return 1
	lock_cache
	if [ ! -f "$so" ] || [ "$src" -nt "$so" ]; then
		"$IDLELAB" governor build "$src" -o "$so.tmp$$" >/dev/null 2>&1 ||
			die "governor build $src failed"
		mv "$so.tmp$$" "$so"
	fi
	unlock_cache
	echo "$so"
}

# agreement DIR FILE JUDGE GOV KERNEL [IMPORT-OPTION...]: import DIR/FILE
# (an idlelab trace is taken as it is), replay it with the live governor
# GOV (built in) and the kernel's own file of series KERNEL; a line
# per column: FILE COLUMN ENTRIES SAME% TICK% MISS% VERDICT.  The verdict
# (doc/lab.md): at least 99.5% of the entries, ticks stops and miss
# classes agree, and at most one disagrees where that is fewer (ok);
# "-" for the built-in where the kernel's file is there.  JUDGE: "judge"
# (a FAIL makes the status 1), "note" (the verdict in parentheses, the
# status untouched) or "show" (no verdict).
agreement() {
	local d=$1 f=$2 judge=$3 gov=$4 kernel=$5 so cols name=${2//./-}
	shift 5
	case $f in
	*.idl) name=${f%.idl} ;;
	*) "$IDLELAB" import -q --states "$d/states.table" --governor "$gov" \
		"$@" -o "$d/$name.idl" "$d/$f" 2>"$d/$name.import.log" ||
		die "import of $d/$f failed (see $d/$name.import.log)" ;;
	esac
	cols=$gov
	if so=$(kernel_governor "$kernel" "$gov"); then
		cols="$cols,$so"
	fi
	"$IDLELAB" replay -g "$cols" --format json -o "$d/$name.json" \
		"$d/$name.idl" ||
		die "replay of $d/$name.idl failed"
	python3 - "$d/$name.json" "$f" "$judge" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["replay"]["traces"][0]
g = t["governors"]
own = any("/" in c for c in g)
bad = 0
for col, s in g.items():
    if not s.get("agreement_entries"):
        continue
    label = "built-in" if "/" not in col else "kernel file"
    verdict = "ok"
    for n, same in ((s["agreement_entries"], s["agreement_same"]),
                    (s["agreement_tick_stops"], s["agreement_tick_same"]),
                    (s["miss_entries"], sum(s["miss_matrix"][k] for k in
                     ("kernel_none/replay_none", "kernel_above/replay_above",
                      "kernel_below/replay_below")))):
        if n and n - same > max(1, n // 200):
            verdict = "FAIL"
    if (own and label == "built-in") or sys.argv[3] == "show":
        verdict = "-"
    elif sys.argv[3] == "note":
        verdict = "(%s)" % verdict
    bad += verdict == "FAIL"
    pct = lambda k: "%6.2f" % s[k] if s.get(k) is not None else "     -"
    print("%-14s %-12s %6d %s %s %s  %s" % (sys.argv[2], label,
          s["agreement_entries"], pct("agreement_pct"),
          pct("agreement_tick_pct"), pct("miss_agreement_pct"), verdict))
sys.exit(1 if bad else 0)
PY
}

# The traces of a capture: the running machine's (text and trace.dat),
# judged, and the one from boot (with the kernel's boot in it); the
# status is 1 when a judged one fails.
cmd_replay() {
	local d=${1:-} rc=0 gov kernel f
	[ -n "$d" ] && [ -f "$d/kernel" ] || die "replay: no capture in '${d:-}'"
	kernel=$(cat "$d/kernel")
	[ ! -f "$d/arch" ] || set_arch "$(cat "$d/arch")"
	echo "trace          column       entries  same%  tick%  miss%  verdict"
	# recordings of idlelab itself in the guest (lab.sh run):
	# rec-GOV[-probed][.WORKLOAD].idl
	for f in "$d"/rec-*.idl; do
		[ -f "$f" ] || continue
		gov=${f##*/rec-}
		agreement "$d" "${f##*/}" judge "${gov%%[-.]*}" "$kernel" ||
			rc=1
		# a probed recording's raw events without the probes: the
		# events alone of the same run (noted, as mid-events.txt)
		f=${f%.idl}.txt
		[ -f "$f" ] && grep -q ': idlelab_[a-z_]*: ' "$f" || continue
		grep -v ': idlelab_[a-z_]*: ' "$f" > "${f%.txt}-events.txt"
		agreement "$d" "$(basename "${f%.txt}")-events.txt" note \
			"${gov%%[-.]*}" "$kernel"
	done
	[ -f "$d/governor" ] || return $rc
	gov=$(cat "$d/governor")
	if [ -f "$d/mid.txt" ]; then
		agreement "$d" mid.txt judge "$gov" "$kernel" || rc=1
	fi
	# a capture with the probe inputs: what its events alone give, as
	# a plain capture would (noted, not judged: without the probes the
	# ping-pongs fall short, doc/lab.md)
	if [ -f "$d/mid.txt" ] && grep -q ': idlelab_[a-z_]*: ' "$d/mid.txt"; then
		grep -v ': idlelab_[a-z_]*: ' "$d/mid.txt" > "$d/mid-events.txt"
		agreement "$d" mid-events.txt note "$gov" "$kernel"
	fi
	if [ -f "$d/mid.dat" ]; then
		agreement "$d" mid.dat judge "$gov" "$kernel" --instance lab || rc=1
	fi
	if [ -f "$d/gov.txt" ]; then
		agreement "$d" gov.txt show "$gov" "$kernel" || rc=1
	fi
	return $rc
}

# the architecture: -a/--arch before the command, or LAB_ARCH
while [ $# -gt 0 ]; do
	case $1 in
	-a|--arch) [ $# -ge 2 ] || die "--arch needs arm64 or x86_64"
		ARCH=$2; shift 2 ;;
	--arch=*) ARCH=${1#--arch=}; shift ;;
	*) break ;;
	esac
done
set_arch "$ARCH"

case ${1:-} in
fetch) shift; cmd_fetch "$@" ;;
capture) shift; cmd_capture "$@" ;;
run) shift; cmd_run "$@" ;;
replay) shift; cmd_replay "$@" ;;
-h|--help|"") usage ;;
*) die "unknown command '$1' (fetch, capture, run, replay)" ;;
esac
