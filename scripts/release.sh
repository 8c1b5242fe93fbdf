#!/bin/sh
# SPDX-License-Identifier: MIT
# `make release`: sets the version, the pinned revision and the hashes in
# the three packagings, in two commits:
#
#   1. (only when VERSION changes) "release X.Y.Z": VERSION and a new
#      debian/changelog entry; the Debian package builds the tree it is in,
#      so this is all it needs.
#   2. "packaging: build X.Y.Z from <commit>": the Yocto recipe's
#      PERFGUIDE_RELEASE_REV, PV and LIC_FILES_CHKSUM, and the Buildroot
#      package's PERFGUIDE_RELEASE_VERSION and perfguide.hash (the tarball
#      Buildroot's own git download makes of that commit, and LICENSE),
#      pinning the commit before it: a commit cannot name itself, so the
#      pin is always HEAD's parent right after a release.
#
# The pin must hold every hardening fix docs/security.md lists ("Hardening
# rounds"): run this after merging one, then make check's style.release
# (scripts/check-release.sh) passes again.
#
# usage: scripts/release.sh BUILDROOT [VERSION]
#   BUILDROOT a Buildroot checkout (its support/download/git is run on this
#             repository; nothing is fetched)
#   VERSION   MAJOR.MINOR.PATCH; default: VERSION's (only the pin moves)
set -eu
me=release
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { awk 'NR > 2 && /^#/ { print; next } NR > 2 { exit }' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
br=$(cd "$1" 2>/dev/null && pwd) || { echo "$me: no Buildroot checkout at $1" >&2; exit 2; }
[ -f "$br/support/download/git" ] || { echo "$me: $br is not Buildroot (no support/download/git)" >&2; exit 2; }
cd "$top"
git rev-parse --git-dir >/dev/null 2>&1 || { echo "$me: $top is not a git checkout" >&2; exit 2; }
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "$me: commit or stash your changes first" >&2; exit 2; }
old=$(cat VERSION)
new=${2:-$old}
echo "$new" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' || { echo "$me: '$new' is not MAJOR.MINOR.PATCH" >&2; exit 2; }

recipe=meta-perfguide/recipes-benchmark/perfguide/perfguide_git.bb
mk=buildroot/package/perfguide/perfguide.mk
hash=buildroot/package/perfguide/perfguide.hash

# 1. The version, where it changes.
if [ "$new" != "$old" ]; then
	echo "$new" >VERSION
	who=$(sed -n 's/^ -- \(.*>\)  .*$/\1/p' debian/changelog | head -n 1)
	{
		printf 'perfguide (%s) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n\n' \
			"$new" "$new" "$who" "$(date -R)"
		cat debian/changelog
	} >debian/changelog.new
	mv debian/changelog.new debian/changelog
	git commit -q -m "release $new: VERSION and debian/changelog" VERSION debian/changelog
fi

# 2. The pin: HEAD, with every listed hardening fix in it.
pin=$(git rev-parse HEAD)
for c in $(sh scripts/check-release.sh --fixes); do
	git merge-base --is-ancestor "$c" "$pin" || { echo "$me: the hardening fix $c is not in HEAD" >&2; exit 1; }
done
md5=$(md5sum LICENSE | cut -d' ' -f1)
sed -i -e "s/^PERFGUIDE_RELEASE_REV = \".*\"$/PERFGUIDE_RELEASE_REV = \"$pin\"/" \
	-e "s/^PV = \".*\"$/PV = \"$new+git\"/" \
	-e "s/^LIC_FILES_CHKSUM = \".*\"$/LIC_FILES_CHKSUM = \"file:\/\/LICENSE;md5=$md5\"/" "$recipe"
sed -i "s/^PERFGUIDE_RELEASE_VERSION = .*$/PERFGUIDE_RELEASE_VERSION = $pin/" "$mk"

# The tarball Buildroot's git download makes of the pin, by Buildroot's own
# script (its temporary files go to the directory it runs in).
fmt=$(sed -n 's/^BR_FMT_VERSION_git = //p' "$br/package/pkg-download.mk")
[ -n "$fmt" ] || { echo "$me: no BR_FMT_VERSION_git in $br/package/pkg-download.mk" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tgz=perfguide-$pin$fmt.tar.gz
if ! (cd "$tmp" && BR_BACKEND_DL_GETOPTS=":hc:d:o:n:N:H:lru:qf:e" GIT=git TAR=tar \
	bash "$br/support/download/git" -q -o "$tmp/$tgz" -u "file://$top" -c "$pin" -d "$tmp/git" \
	-n "perfguide-$pin") >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	echo "$me: Buildroot's git download of $pin failed" >&2
	exit 1
fi
cat >"$hash" <<EOF
# Locally computed by scripts/release.sh: the tarball Buildroot's git
# download makes of PERFGUIDE_RELEASE_VERSION, and the licence file
sha256  $(sha256sum "$tmp/$tgz" | cut -d' ' -f1)  $tgz
sha256  $(sha256sum LICENSE | cut -d' ' -f1)  LICENSE
EOF
git commit -q -m "packaging: build $new from $(git log -1 --format=%h "$pin"): the Yocto recipe's PERFGUIDE_RELEASE_REV and PV, the Buildroot package's PERFGUIDE_RELEASE_VERSION and perfguide.hash (scripts/release.sh)" \
	"$recipe" "$mk" "$hash"
echo "$me: $new, pinned at $pin"
sh scripts/check-release.sh
