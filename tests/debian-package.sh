#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The Debian packages (debian/, issue 31): built from this checkout's
# files with dpkg-buildpackage, checked with lintian (no error), installed
# into this machine with apt-get, used (the installed idlelab replays its
# bundled trace, a plugin built with pkg-config against the installed
# header takes part, `governor build` works from the installed files with
# the source tree gone, bash completion answers), then purged: every file
# the packages brought is gone again.  Root only, and only where nothing
# of idlelab is installed by dpkg already; SKIP otherwise.
set -u
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
SRC=$(cd "$top_srcdir" && pwd)
for t in dpkg-buildpackage dh lintian apt-get git cc pkg-config; do
	command -v $t >/dev/null ||
		skip "no $t (./quickstart check installs it)"
done
[ "$(id -u)" = 0 ] || skip "installs packages: root only"
[ -e "$SRC/.git" ] ||
	skip "not a git checkout (the package is built of its files)"
if dpkg-query -W -f='${Status}\n' idlelab libidlelab-dev 2>/dev/null |
   grep -q 'install ok installed'; then
	skip "idlelab is installed by dpkg here already"
fi

tmpdir
installed=
cleanup() {
	[ -n "$installed" ] &&
		apt-get purge -y -q idlelab libidlelab-dev >/dev/null 2>&1
}

# the working tree's files (tracked and new, not ignored), not the build
mkdir -p "$T/src/idlelab"
(cd "$SRC" && git ls-files -z -co --exclude-standard |
	tar --null -T - -cf -) | tar -xf - -C "$T/src/idlelab" ||
	fatal "cannot copy the tree"
start=$(date +%s)
(cd "$T/src/idlelab" &&
 DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" dpkg-buildpackage -b -us -uc) \
	>"$T/build.log" 2>&1 ||
	{ echo "FAIL: dpkg-buildpackage"; tail -20 "$T/build.log"; exit 1; }
ok "dpkg-buildpackage -b -us -uc ($(($(date +%s) - start)) s)"
ls "$T/src"/*.deb | sed 's|.*/|  |'
deb=$(ls "$T/src"/idlelab_*.deb) dev=$(ls "$T/src"/libidlelab-dev_*.deb)

lintian --tag-display-limit 0 "$T/src"/*.changes >"$T/lintian.log" 2>&1
echo "lintian: $(grep -c '^E:' "$T/lintian.log") errors, $(grep -c '^W:' "$T/lintian.log") warnings, $(grep -c '^I:' "$T/lintian.log") info"
sed 's/^/  /' "$T/lintian.log" | grep -E '^  (E|W):' | head -20
grep -q '^E:' "$T/lintian.log" && bad "lintian errors"

# what the packages bring, and that none of it is here before
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\.||; s| ->.*||' >"$T/files"
dpkg-deb -c "$dev" | awk '{ print $6 }' | sed 's|^\.||; s| ->.*||' >>"$T/files"
grep -v '/$' "$T/files" >"$T/plain"
while read -r f; do
	[ -e "$f" ] && bad "$f is there before the install"
done <"$T/plain"

installed=1
apt-get install -y -q --no-install-recommends "$deb" "$dev" >"$T/apt.log" 2>&1 ||
	{ bad "apt-get install: $(tail -3 "$T/apt.log")"; exit 1; }
ok "installed: $(dpkg-query -W -f='${Package} ${Version}, ' idlelab libidlelab-dev)"

# the installed files only: no source tree to fall back on
rm -rf "$T/src/idlelab"
cd "$T" || exit 1
/usr/bin/idlelab --version | grep -q '^idlelab ' || bad "--version"
/usr/bin/idlelab replay -g menu,ladder /usr/share/idlelab/default.idl \
	>"$T/replay.txt" 2>&1 && grep -q 'menu' "$T/replay.txt" &&
	ok "the installed idlelab replays its bundled trace" ||
	bad "replay of the bundled trace: $(head -3 "$T/replay.txt")"
/usr/bin/idlelab replay -g ladder >"$T/replay.txt" 2>&1 &&
	grep -q 'default.idl' "$T/replay.txt" &&
	ok "replay without a trace finds the installed default.idl" ||
	bad "replay without a trace: $(head -3 "$T/replay.txt")"
cp "$SRC/tests/plugins/deepest.c" "$T/deepest.c"
# shellcheck disable=SC2046
cc $(pkg-config --cflags idlelab) -shared -fPIC "$T/deepest.c" \
	-o "$T/deepest.so" 2>"$T/cc.log" &&
	/usr/bin/idlelab replay -g "menu,$T/deepest.so" --format json \
	-o "$T/p.json" /usr/share/idlelab/default.idl 2>"$T/err" &&
	python3 - "$T/p.json" "$T/deepest.so" <<'PY' &&
import json, sys
g = json.load(open(sys.argv[1]))["replay"]["traces"][0]["governors"]
assert g[sys.argv[2]]["selects"] > 0 and "error" not in g[sys.argv[2]]
PY
	ok "a plugin built with pkg-config --cflags idlelab replays" ||
	bad "plugin: $(cat "$T/cc.log" "$T/err")"
cp "$SRC/tests/plugins/kdeepest.c" "$T/kdeepest.c"
/usr/bin/idlelab governor build "$T/kdeepest.c" -o "$T/kdeepest.so" \
	>"$T/build.txt" 2>&1 &&
	/usr/bin/idlelab replay -g "$T/kdeepest.so" /usr/share/idlelab/default.idl \
	>/dev/null 2>&1 &&
	ok "governor build from the installed files" ||
	bad "governor build: $(cat "$T/build.txt")"
got=$(bash -c '. /usr/share/bash-completion/completions/idlelab
	COMP_LINE="idlelab replay -g me" COMP_POINT=${#COMP_LINE}
	COMP_WORDS=(idlelab replay -g me) COMP_CWORD=3
	compopt() { :; }; _idlelab; echo "${COMPREPLY[*]}"')
[ "$got" = menu ] && ok "installed completion: idlelab replay -g me -> menu" ||
	bad "installed completion: '$got'"

apt-get purge -y -q idlelab libidlelab-dev >"$T/purge.log" 2>&1 ||
	bad "apt-get purge: $(tail -3 "$T/purge.log")"
installed=
left=0
while read -r f; do
	[ -e "$f" ] && { echo "  left: $f"; left=$((left + 1)); }
done <"$T/plain"
[ $left = 0 ] && ok "purged: none of the $(wc -l <"$T/plain") files is left" ||
	bad "$left files left after the purge"
finish
