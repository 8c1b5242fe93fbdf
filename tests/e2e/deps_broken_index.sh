# SPDX-License-Identifier: MIT
# scripts/deps.sh when one index of the archive cannot be read (a mirror
# caught mid-sync): two local repositories, one of them with a Release file
# naming a wrong hash for its Packages index. apt works in a scratch root
# (APT_CONFIG: its own sources, lists and cache; dpkg --root): the host's
# packages and dpkg database are not touched. deps.sh must report the index,
# still install the package of the good repository, name the one it could
# not install with the reason, and tests/e2e/lib.sh's deps_why must give
# that reason to a test that needs it.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
[ "$(id -u)" -eq 0 ] || skip "installing into a scratch root with dpkg --root needs root"
for c in apt-get apt-config dpkg dpkg-deb dpkg-query; do
	command -v $c >/dev/null 2>&1 || skip "$c is not installed: not a Debian system"
done
native=$(dpkg --print-architecture)
foreign=armhf
[ "$native" != armhf ] || foreign=arm64
sb=$T/sb
mkdir -p "$sb/good" "$sb/bad" "$sb/state/lists/partial" "$sb/cache/archives/partial" "$sb/log" "$sb/none" \
	"$sb/root/var/lib/dpkg/info" "$sb/root/var/lib/dpkg/updates" "$sb/root/var/lib/dpkg/triggers"
: >"$sb/root/var/lib/dpkg/status"
: >"$sb/root/var/lib/dpkg/available"

# deb NAME ARCH REPO: a package holding one file, usr/share/pgtest/NAME.
deb() {
	d=$T/pkg-$1
	mkdir -p "$d/DEBIAN" "$d/usr/share/pgtest"
	echo "$1" >"$d/usr/share/pgtest/$1"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: %s\nMaintainer: perfguide tests <t@localhost>\nDescription: deps.sh test package\n' \
		"$1" "$2" >"$d/DEBIAN/control"
	dpkg-deb --build --root-owner-group "$d" "$3/$1_1.0_$2.deb" >/dev/null || fail "dpkg-deb could not build $1"
}
# index REPO: its Packages, and a Release naming its size and SHA256.
index() {
	(cd "$1" && for f in *.deb; do
		dpkg-deb -f "$f"
		printf 'Filename: ./%s\nSize: %s\nSHA256: %s\n\n' "$f" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
	done >Packages)
	printf 'Date: %s\nSHA256:\n %s %s Packages\n' "$(date -u -R)" "$(sha256sum "$1/Packages" | cut -d' ' -f1)" \
		"$(stat -c %s "$1/Packages")" >"$1/Release"
}
deb pgtest-native "$native" "$sb/good"
deb pgtest-native2 "$native" "$sb/good"
deb pgtest-foreign "$foreign" "$sb/bad"
index "$sb/good"
index "$sb/bad"
# The broken mirror: the Release names another file's hash, the same size.
sed -i 's/^ [0-9a-f]\{64\} / 0000000000000000000000000000000000000000000000000000000000000000 /' "$sb/bad/Release"

cat >"$sb/sources.list" <<EOF
deb [trusted=yes] file:$sb/good ./
deb [trusted=yes] file:$sb/bad ./
EOF
# The host's hooks (dpkg-preconfigure, cache cleaning) stay out of it.
cat >"$sb/apt.conf" <<EOF
Dir::Etc::SourceList "$sb/sources.list";
Dir::Etc::SourceParts "$sb/none";
Dir::Etc::Preferences "$sb/none/preferences";
Dir::Etc::PreferencesParts "$sb/none";
Dir::State "$sb/state";
Dir::State::status "$sb/root/var/lib/dpkg/status";
Dir::Cache "$sb/cache";
Dir::Log "$sb/log";
APT::Architecture "$native";
APT::Architectures { "$native"; "$foreign"; };
Acquire::Languages "none";
DPkg::Options { "--root=$sb/root"; "--log=$sb/log/dpkg.log"; };
#clear DPkg::Pre-Invoke;
#clear DPkg::Post-Invoke;
#clear DPkg::Pre-Install-Pkgs;
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
EOF
export APT_CONFIG="$sb/apt.conf" PG_DEPS_RETRY_WAIT=0
in_root() { dpkg-query --admindir="$sb/root/var/lib/dpkg" -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }

# 1. A native package and one of the architecture whose index is broken.
set +e
sh "$PG_SOURCE_DIR/scripts/deps.sh" packages "$sb/missing" pgtest-native "pgtest-foreign:$foreign" \
	>"$T/out" 2>"$T/err"
rc=$?
set -e
cat "$T/err"
[ $rc -eq 1 ] || fail "a needed package could not be installed, yet exit $rc"
grep -q "apt-get update could not read, after 3 tries" "$T/err" || fail "the broken index is not reported"
grep -q "file:$sb/bad/.*Packages" "$T/err" || fail "the report does not name the broken index"
in_root pgtest-native || fail "the good repository's package was not installed"
[ -f "$sb/root/usr/share/pgtest/pgtest-native" ] || fail "pgtest-native's file is not in the scratch root"
in_root "pgtest-foreign:$foreign" && fail "the broken index's package was installed"
grep -q "^pgtest-foreign:$foreign	apt-get: .*apt-get update could not read file:$sb/bad/" "$sb/missing" \
	|| fail "the record does not name the package and the unread index: $(cat "$sb/missing")"
grep -q "could not install pgtest-foreign:$foreign" "$T/err" || fail "the console does not name it"
[ "$(wc -l <"$sb/missing")" -eq 1 ] || fail "the record names more than the one package: $(cat "$sb/missing")"

# 2. What a test that needs the package is told.
PG_DEPS_MISSING=$sb/missing
why=$(deps_why "pgtest-foreign:$foreign") || fail "deps_why knows nothing of pgtest-foreign"
case $why in
"scripts/deps.sh could not install pgtest-foreign:$foreign (apt-get: "*) ;;
*) fail "deps_why says: $why" ;;
esac
deps_why pgtest-native >/dev/null && fail "deps_why names an installed package"

# 3. Only native packages: the broken index stops nothing.
set +e
sh "$PG_SOURCE_DIR/scripts/deps.sh" packages "$sb/missing2" pgtest-native2 >"$T/out" 2>"$T/err"
rc=$?
set -e
[ $rc -eq 0 ] || fail "a broken index of another architecture failed the native install: exit $rc: $(cat "$T/err")"
in_root pgtest-native2 || fail "pgtest-native2 was not installed"
[ ! -s "$sb/missing2" ] || fail "the record names packages: $(cat "$sb/missing2")"

# The host is as it was.
dpkg-query -W pgtest-native >/dev/null 2>&1 && fail "pgtest-native reached the host's dpkg database"
[ ! -e /usr/share/pgtest ] || fail "a test package's file reached the host"
echo "ok"
