#!/usr/bin/env bash
# idlelab for arm64, cross-built with Debian's multiarch packages, and a
# root tree for the lab guest (doc/live.md, "The lab's run").
#
#   lab/cross.sh [-o DIR]
#
# DIR (default $IDLELAB_LAB_CACHE/arm64) receives:
#   sysroot/  the arm64 -dev and runtime packages idlelab builds against,
#             unpacked (apt-get download + dpkg-deb -x: the amd64 ones
#             stay installed; libcpupower-dev is not co-installable)
#   build/    the cross build (configure --host=aarch64-linux-gnu) of a
#             copy of this tree
#   root/     what the guest gets: `make install` (prefix /usr), the
#             shared libraries it loads, bash and flock (the project's
#             root tests), and rt-tests (cyclictest, hackbench) as the
#             Debian tool for live mode
# Needs gcc-aarch64-linux-gnu, autoconf/automake, and
# `dpkg --add-architecture arm64` with an `apt-get update` after it.
set -euo pipefail

LAB=$(cd "$(dirname "$0")" && pwd)
TOP=$(dirname "$LAB")
CACHE=${IDLELAB_LAB_CACHE:-/var/cache/idlelab/lab}
OUT=$CACHE/arm64
HOST=aarch64-linux-gnu
ML=usr/lib/$HOST

# What idlelab's configure checks (with their runtime libraries), what
# it loads at run time, and what the guest runs besides it.
DEV="libcpupower-dev libcpupower1 libpfm4-dev libpfm4 check libsubunit-dev
	libsubunit0 libtracefs-dev libtracefs1 libtraceevent-dev
	libtraceevent1 libtracecmd-dev libtracecmd1 libjansson-dev libjansson4
	libgsl-dev libgsl27 libgslcblas0 libzstd1 libc6"
GUEST="bash libtinfo6 util-linux rt-tests libnuma1"

die() {
	echo "cross: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	-o) OUT=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
		   exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
done
command -v $HOST-gcc >/dev/null ||
	die "no $HOST-gcc (apt-get install gcc-aarch64-linux-gnu)"
dpkg --print-foreign-architectures | grep -qx arm64 ||
	die "no arm64 packages (dpkg --add-architecture arm64; apt-get update)"

# sysroot: fetched once per package list
fetch_sysroot() {
	local want tmp p
	want=$(echo $DEV $GUEST)
	[ -f "$OUT/sysroot/.packages" ] &&
		[ "$(cat "$OUT/sysroot/.packages")" = "$want" ] && return
	tmp=$(mktemp -d "$CACHE/cross.XXXXXX")
	echo "cross: fetching $want (arm64)" >&2
	# shellcheck disable=SC2046
	(cd "$tmp" && apt-get download -q $(for p in $want; do
		echo "$p:arm64"; done) >"$tmp/apt.log" 2>&1) ||
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
	(cd "$OUT/build" && "$OUT/src/configure" --host=$HOST --prefix=/usr \
		${IDLELAB_CONFIGURE_FLAGS:-} \
		CPPFLAGS="-I$s/usr/include -I$s/usr/include/$HOST" \
		LDFLAGS="-L$s/$ML -L$s/lib/$HOST -Wl,-rpath-link,$s/$ML:$s/lib/$HOST" \
		PKG_CONFIG_LIBDIR="$s/$ML/pkgconfig:$s/usr/share/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$s" >configure.log 2>&1) ||
		{ tail -5 "$OUT/build/configure.log" >&2
		  die "configure failed (see $OUT/build/configure.log)"; }
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
	mkdir -p "$r/lib/$HOST" "$r/$ML" "$r/usr/bin"
	cp -a "$s/lib/ld-linux-aarch64.so.1" "$r/lib/"
	cp -a "$s/lib/$HOST/"*.so* "$r/lib/$HOST/"
	cp -a "$s/$ML/"*.so.* "$r/$ML/"
	cp -a "$s/bin/bash" "$r/usr/bin/bash"
	cp -a "$s/usr/bin/flock" "$r/usr/bin/flock"
	cp -a "$s/usr/bin/cyclictest" "$s/usr/bin/hackbench" "$r/usr/bin/"
	${HOST}-strip "$r/usr/bin/idlelab"
	rm -rf "$OUT/root"
	mv "$r" "$OUT/root"
}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
fetch_sysroot
copy_source
cross_build
guest_root
echo "cross: $OUT/root/usr/bin/idlelab ($($HOST-readelf -h \
	"$OUT/root/usr/bin/idlelab" | awk '/Machine:/ { $1 = ""; print }'))"
