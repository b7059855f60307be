#!/usr/bin/env bash
# idlelab for the lab guest, and a root tree for it (doc/live.md, "The
# lab's run"): for arm64 cross-built with Debian's multiarch packages,
# for x86_64 built natively.
#
#   lab/cross.sh [--arch arm64|x86_64] [-o DIR]
#
# DIR (default $IDLELAB_LAB_CACHE/arm64, or .../x86_64) receives:
#   sysroot/  the guest architecture's -dev and runtime packages,
#             unpacked (apt-get download + dpkg-deb -x: the host's stay
#             installed; libcpupower-dev is not co-installable)
#   build/    the build (arm64: configure --host=aarch64-linux-gnu
#             against the sysroot; x86_64: against the host) of a copy
#             of this tree
#   root/     what the guest gets: `make install` (prefix /usr), the
#             shared libraries it loads, bash and flock (the project's
#             root tests), rt-tests (cyclictest, hackbench) as the Debian
#             tool for live mode, and stress-ng, a workload nobody here
#             wrote (lab/guest/workloads.sh)
# Needs autoconf/automake; for arm64 gcc-aarch64-linux-gnu and
# `dpkg --add-architecture arm64` with an `apt-get update` after it.
set -euo pipefail

LAB=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$LAB")
CACHE=${IDLELAB_LAB_CACHE:-/var/cache/idlelab/lab}
ARCH=${LAB_ARCH:-arm64}
OUT=

# What idlelab's configure checks (with their runtime libraries), what
# it loads at run time, and what the guest runs besides it.
DEV="libcpupower-dev libcpupower1 libpfm4-dev libpfm4 check libsubunit-dev
	libsubunit0 libtracefs-dev libtracefs1 libtraceevent-dev
	libtraceevent1 libtracecmd-dev libtracecmd1 libjansson-dev libjansson4
	libgsl-dev libgsl27 libgslcblas0 libzstd1 libc6"
GUEST="bash libtinfo6 util-linux rt-tests libnuma1"
# and a tool with many libraries, fetched with every package it needs
GUEST_CLOSURE="stress-ng"

die() {
	echo "cross: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	--arch) ARCH=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		   exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
done
case $ARCH in
arm64|aarch64)
	ARCH=arm64 DEBARCH=arm64 HOST=aarch64-linux-gnu
	LDSO=lib/ld-linux-aarch64.so.1 CROSS=yes
	command -v $HOST-gcc >/dev/null ||
		die "no $HOST-gcc (apt-get install gcc-aarch64-linux-gnu)"
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		die "no arm64 packages (dpkg --add-architecture arm64;" \
		    "apt-get update)" ;;
x86_64|x86|amd64)
	ARCH=x86_64 DEBARCH=amd64 HOST=x86_64-linux-gnu
	LDSO=lib64/ld-linux-x86-64.so.2 CROSS= ;;
*) die "unknown architecture '$ARCH' (arm64 or x86_64)" ;;
esac
OUT=${OUT:-$CACHE/$ARCH}
ML=usr/lib/$HOST

# The packages of the guest's tools and every library they load (the
# dependency closure; the guest architecture's and architecture-all).
closure() {
	# shellcheck disable=SC2046
	apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		$(for p in "$@"; do echo "$p:$DEBARCH"; done) 2>/dev/null |
		grep -v '^ \|<' | sed "s/:$DEBARCH\$//" | grep -v : | sort -u
}

# sysroot: fetched once per package list
fetch_sysroot() {
	local want tmp p all
	want=$(echo $DEV $GUEST $(closure $GUEST_CLOSURE))
	[ -f "$OUT/sysroot/.packages" ] &&
		[ "$(cat "$OUT/sysroot/.packages")" = "$want" ] && return
	tmp=$(mktemp -d "$CACHE/cross.XXXXXX")
	echo "cross: fetching $want ($DEBARCH)" >&2
	# architecture-all packages by their name alone
	all=" $(apt-cache show --no-all-versions $want 2>/dev/null | awk '
		/^Package: / { p = $2 }
		/^Architecture: all/ { print p }' | sort -u | tr '\n' ' ')"
	# shellcheck disable=SC2046
	(cd "$tmp" && apt-get download -q $(for p in $want; do
		case $all in
		*" $p "*) echo "$p" ;;
		*) echo "$p:$DEBARCH" ;;
		esac; done) >"$tmp/apt.log" 2>&1) ||
		{ tail -3 "$tmp/apt.log" >&2; rm -rf "$tmp"
		  die "apt-get download failed"; }
	for p in "$tmp"/*.deb; do
		dpkg-deb -x "$p" "$tmp/root"
	done
	echo "$want" > "$tmp/root/.packages"
	rm -rf "$OUT/sysroot"
	mv "$tmp/root" "$OUT/sysroot"
	rm -rf "$tmp"
}

# a copy of the tree's own files (what git tracks, as they are now), so
# the cross build never touches the native one
copy_source() {
	rm -rf "$OUT/src"
	mkdir -p "$OUT/src"
	# (a tree that is not the top of a git checkout, such as make
	# distcheck's copy inside one, is copied whole but for its build)
	if [ "$(git -C "$TOP" rev-parse --show-toplevel 2>/dev/null)" = \
	     "$(cd "$TOP" && pwd -P)" ]; then
		(cd "$TOP" && git ls-files -z | cpio -pdm0 --quiet "$OUT/src")
	else
		(cd "$TOP" && tar --exclude=./_build -cf - .) |
			tar -xf - -C "$OUT/src"
		chmod -R u+w "$OUT/src"	# distcheck's copy is read-only
		[ ! -f "$OUT/src/Makefile" ] || make -C "$OUT/src" distclean \
			>/dev/null
	fi
	(cd "$OUT/src" && autoreconf -fi >/dev/null 2>&1) ||
		die "autoreconf failed in $OUT/src"
}

cross_build() {
	local s=$OUT/sysroot
	rm -rf "$OUT/build"
	mkdir -p "$OUT/build"
	if [ -z "$CROSS" ]; then
		(cd "$OUT/build" && "$OUT/src/configure" --prefix=/usr \
			${IDLELAB_CONFIGURE_FLAGS:-} >configure.log 2>&1) ||
			{ tail -5 "$OUT/build/configure.log" >&2
			  die "configure failed (see $OUT/build/configure.log)"; }
	else
	(cd "$OUT/build" && "$OUT/src/configure" --host=$HOST --prefix=/usr \
		${IDLELAB_CONFIGURE_FLAGS:-} \
		CPPFLAGS="-I$s/usr/include -I$s/usr/include/$HOST" \
		LDFLAGS="-L$s/$ML -L$s/lib/$HOST -Wl,-rpath-link,$s/$ML:$s/lib/$HOST" \
		PKG_CONFIG_LIBDIR="$s/$ML/pkgconfig:$s/usr/share/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$s" >configure.log 2>&1) ||
		{ tail -5 "$OUT/build/configure.log" >&2
		  die "configure failed (see $OUT/build/configure.log)"; }
	fi
	make -C "$OUT/build" -j"$(nproc)" >"$OUT/build/make.log" 2>&1 ||
		{ grep -E 'error|warning' "$OUT/build/make.log" | head >&2
		  die "make failed (see $OUT/build/make.log)"; }
}

# root/: the install, the libraries (the loader, libc and what idlelab,
# libpfm and the guest's tools need), the tools
guest_root() {
	local s=$OUT/sysroot r=$OUT/root.tmp
	rm -rf "$r"
	make -C "$OUT/build" install DESTDIR="$r" >/dev/null
	mkdir -p "$r/lib/$HOST" "$r/$ML" "$r/usr/bin" "$r/$(dirname $LDSO)"
	cp -a "$s/lib/$HOST/"*.so* "$r/lib/$HOST/"
	cp -a "$s/$ML/"*.so.* "$r/$ML/"
	# the loader where binaries look for it (amd64's: an absolute link
	# into lib/x86_64-linux-gnu, right in the guest)
	cp -a "$s/$LDSO" "$r/$LDSO"
	cp -a "$s/bin/bash" "$r/usr/bin/bash"
	cp -a "$s/usr/bin/flock" "$r/usr/bin/flock"
	cp -a "$s/usr/bin/cyclictest" "$s/usr/bin/hackbench" \
		"$s/usr/bin/stress-ng" "$r/usr/bin/"
	if [ -n "$CROSS" ]; then
		${HOST}-strip "$r/usr/bin/idlelab"
	else
		strip "$r/usr/bin/idlelab"
	fi
	rm -rf "$OUT/root"
	mv "$r" "$OUT/root"
}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
fetch_sysroot
copy_source
cross_build
guest_root
echo "cross: $OUT/root/usr/bin/idlelab ($(readelf -h \
	"$OUT/root/usr/bin/idlelab" | awk '/Machine:/ { $1 = ""; print }'))"
