#!/bin/sh
# SPDX-License-Identifier: MIT
# make check's style.release: the three packagings agree with the tree.
#
#   - debian/changelog's version is VERSION's (the package builds this tree);
#   - the Yocto recipe and the Buildroot package pin the same commit
#     (PERFGUIDE_RELEASE_REV, PERFGUIDE_RELEASE_VERSION), perfguide.hash has
#     that commit's tarball, the licence is MIT in all three with the
#     hashes of this LICENSE, and neither names a placeholder site;
#   - in a git checkout: the pinned commit is in HEAD's history, its VERSION
#     is the recipe's PV and its LICENSE the one the checksums are of (so
#     the recipes build what they say), and it holds every hardening fix
#     docs/security.md lists under "Hardening rounds".
#
# A pin can never be the commit that contains it, so it is not required to
# be HEAD: a release pins HEAD in a commit of its own (scripts/release.sh),
# and the pin lags behind development until the next release, except that
# it may not lag behind a listed hardening fix. Outside a git checkout (a
# tarball), or in a shallow clone without the pinned commit, the last
# checks cannot be made: it says so and exits 77 (ctest's skip) once the
# others pass.
#
# usage: scripts/check-release.sh          the checks
#        scripts/check-release.sh --fixes  the listed hardening fixes' commits
set -u
me=check-release
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
recipe=meta-perfguide/recipes-benchmark/perfguide/perfguide_git.bb
mk=buildroot/package/perfguide/perfguide.mk
hashf=buildroot/package/perfguide/perfguide.hash

# The commits of docs/security.md's "Hardening rounds" table (last column).
fixes() {
	awk '/^## Hardening rounds/ { s = 1; next } /^## / { s = 0 }
	     s && /^\|/ { n = split($0, c, "|"); id = c[n - 1]; gsub(/[ `]/, "", id)
	                  if (id ~ /^[0-9a-f]+$/ && length(id) >= 7) print id }' docs/security.md
}
[ "${1:-}" = --fixes ] && { fixes; exit 0; }

failed=0
bad() { echo "$me: $*" >&2; failed=1; }
val() { sed -n "s/^$1 = \"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "$2" | head -n 1; }

v=$(cat VERSION)
dv=$(sed -n '1s/^perfguide (\([^)]*\)).*/\1/p' debian/changelog)
[ "$dv" = "$v" ] || bad "debian/changelog's version '$dv' is not VERSION's '$v' (make release)"
rev=$(val PERFGUIDE_RELEASE_REV "$recipe")
brv=$(val PERFGUIDE_RELEASE_VERSION "$mk")
pv=$(val PV "$recipe" | sed 's/+git$//')
echo "$rev" | grep -Eqx '[0-9a-f]{40}' || bad "$recipe: PERFGUIDE_RELEASE_REV '$rev' is not a commit id"
[ "$rev" = "$brv" ] || bad "the Yocto recipe pins $rev, the Buildroot package $brv (make release)"
[ "$(val LICENSE "$recipe")" = MIT ] || bad "$recipe: LICENSE is not MIT"
[ "$(val PERFGUIDE_LICENSE "$mk")" = MIT ] || bad "$mk: PERFGUIDE_LICENSE is not MIT"
[ "$(val PERFGUIDE_LICENSE_FILES "$mk")" = LICENSE ] || bad "$mk: PERFGUIDE_LICENSE_FILES is not LICENSE"
grep -q '^License: MIT$' debian/copyright || bad "debian/copyright has no MIT licence"
md5=$(md5sum LICENSE | cut -d' ' -f1)
[ "$(val LIC_FILES_CHKSUM "$recipe")" = "file://LICENSE;md5=$md5" ] ||
	bad "$recipe: LIC_FILES_CHKSUM is not LICENSE's md5 $md5"
grep -Eq "^sha256  [0-9a-f]{64}  perfguide-$rev-git[0-9]+\.tar\.gz\$" "$hashf" ||
	bad "$hashf has no hash of the pinned commit's tarball (make release)"
grep -qx "sha256  $(sha256sum LICENSE | cut -d' ' -f1)  LICENSE" "$hashf" || bad "$hashf: LICENSE's hash is not this LICENSE's"
grep -rn 'example\.org' meta-perfguide buildroot >&2 && bad "a placeholder site in the recipes"

# What needs the history.
why=""
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	why="not a git checkout"
elif ! git cat-file -e "$rev^{commit}" 2>/dev/null; then
	why="the pinned commit $rev is not in this clone (a shallow one?)"
else
	git merge-base --is-ancestor "$rev" HEAD || bad "the pinned commit $rev is not in HEAD's history"
	[ "$(git show "$rev:VERSION" 2>/dev/null)" = "$pv" ] ||
		bad "the pinned commit's VERSION is '$(git show "$rev:VERSION" 2>/dev/null)', the recipe's PV '$pv+git'"
	[ "$(git show "$rev:LICENSE" 2>/dev/null | md5sum | cut -d' ' -f1)" = "$md5" ] ||
		bad "the pinned commit's LICENSE is not the one LIC_FILES_CHKSUM names"
	n=0
	for c in $(fixes); do
		n=$((n + 1))
		if ! git cat-file -e "$c^{commit}" 2>/dev/null; then
			bad "docs/security.md lists $c, which is no commit here"
		elif ! git merge-base --is-ancestor "$c" "$rev"; then
			bad "the pinned commit $rev lacks the hardening fix $c ($(git log -1 --format=%s "$c" | cut -c1-60)...): make release"
		fi
	done
	[ $n -gt 0 ] || bad "docs/security.md lists no hardening round"
fi
[ $failed -eq 0 ] || exit 1
if [ -n "$why" ]; then
	echo "SKIP: the packagings agree with the tree; $why, so the pin's history was not checked"
	exit 77
fi
echo "$me: VERSION $v; the packagings pin $(echo "$rev" | cut -c1-12) ($pv), which holds the $n hardening rounds listed"
