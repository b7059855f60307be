#!/usr/bin/env bash
# Build the lab's own arm64 kernel: Debian's linux-source-6.12 with the
# teo governor, which Debian's kernels leave out.  lab/kernel.config is
# merged onto allnoconfig, so the kernel has only what the lab guest
# needs and builds in minutes.
#
#   lab/build-kernel.sh      $CACHE/6.12-teo/{Image,config,version,governors/}
#
# Then: lab/lab.sh capture --kernel $CACHE/6.12-teo/Image -g teo -o DIR
# Environment: IDLELAB_LAB_CACHE (default /var/cache/idlelab/lab),
# CROSS_COMPILE (default aarch64-linux-gnu-).
set -euo pipefail

LAB=$(cd "$(dirname "$0")" && pwd)
CACHE=${IDLELAB_LAB_CACHE:-/var/cache/idlelab/lab}
CROSS_COMPILE=${CROSS_COMPILE:-aarch64-linux-gnu-}
SERIES=6.12
SRC=/usr/src/linux-source-$SERIES.tar.xz
FRAG=$LAB/kernel.config
KB=$CACHE/kbuild
TREE=$KB/linux-source-$SERIES
# Objects apart from the sources, so the unpacked tree stays as Debian
# shipped it and other configurations can share it.
OBJ=$KB/obj-$SERIES-teo
OUT=$CACHE/$SERIES-teo

die() {
	echo "build-kernel: $*" >&2
	exit 2
}

kmake() {
	make -C "$TREE" O="$OBJ" ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" "$@"
}

[ -f "$FRAG" ] || die "no fragment $FRAG"
[ -f "$OUT/Image" ] && [ "$OUT/Image" -nt "$FRAG" ] && {
	echo "build-kernel: $OUT/Image is newer than $FRAG, nothing to do" >&2
	exit 0
}
[ -f "$SRC" ] ||
	die "no $SRC (apt-get install linux-source-$SERIES)"
command -v "${CROSS_COMPILE}gcc" >/dev/null ||
	die "no ${CROSS_COMPILE}gcc (apt-get install gcc-aarch64-linux-gnu)"

start=$(date +%s)
mkdir -p "$KB"

# Unpack once; a half-unpacked tree never takes the final name.
if [ ! -f "$TREE/Makefile" ]; then
	echo "build-kernel: unpacking $SRC" >&2
	rm -rf "$KB/unpack"
	mkdir "$KB/unpack"
	tar -xJf "$SRC" -C "$KB/unpack"
	mv "$KB/unpack/linux-source-$SERIES" "$TREE"
	rmdir "$KB/unpack"
fi

mkdir -p "$OBJ"
kmake -s allnoconfig
# -m: only merge; olddefconfig then resolves the dependencies.
(cd "$TREE" && ARCH=arm64 CROSS_COMPILE="$CROSS_COMPILE" \
	scripts/kconfig/merge_config.sh -m -O "$OBJ" "$OBJ/.config" "$FRAG") \
	>/dev/null
kmake -s olddefconfig

# Kconfig drops an option whose dependencies are unmet without a word:
# every line of the fragment must have survived.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) sym=${line%%=*} ;;
	"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *} ;;
	*) continue ;;
	esac
	got=$(grep -E "^$sym=|^# $sym is not set" "$OBJ/.config" || true)
	[ -z "$got" ] && [ "$line" = "# $sym is not set" ] && continue
	if [ "$got" != "$line" ]; then
		echo "build-kernel: fragment has '$line', .config has '${got:-nothing}'" >&2
		bad=1
	fi
done < "$FRAG"
[ $bad = 0 ] || die "fix $FRAG"

kmake -j"$(nproc)" Image

# Same layout as lab.sh's fetch_kernel, written whole or not at all.
tmp=$(mktemp -d "$CACHE/build.XXXXXX")
mkdir "$tmp/governors"
cp "$OBJ/arch/arm64/boot/Image" "$tmp/Image"
cp "$OBJ/.config" "$tmp/config"
dpkg-query -W -f='${Version}\n' "linux-source-$SERIES" > "$tmp/version"
cp "$TREE"/drivers/cpuidle/governors/*.c "$tmp/governors/"
rm -rf "$OUT"
mv "$tmp" "$OUT"
chmod 755 "$OUT"

secs=$(($(date +%s) - start))
echo "build-kernel: $OUT/Image ($(kmake -s kernelrelease)," \
	"$(stat -c %s "$OUT/Image") bytes) in $((secs / 60))m$((secs % 60))s" >&2
