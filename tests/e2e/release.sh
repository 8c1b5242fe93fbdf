# SPDX-License-Identifier: MIT
# make release and style.release on a clone of the committed tree: the
# check fails when the packagings disagree with the tree (a pin without the
# last hardening round, as 12e8f44 lacks issue 26's; a changelog behind
# VERSION; another pin in Buildroot than in Yocto), passes after
# scripts/release.sh, and fails again when a new hardening round is listed
# until the next release moves the pin. Buildroot's git download is a stub
# here (a tarball by git archive): the real one's hash is checked by
# scripts/check-packaging.sh.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
command -v git >/dev/null 2>&1 || skip "git is not installed"
git -C "$PG_SOURCE_DIR" rev-parse --git-dir >/dev/null 2>&1 || skip "the source tree is not a git checkout"
git clone -q "$PG_SOURCE_DIR" "$T/r" 2>"$T/err" || fail "git clone: $(cat "$T/err")"
cd "$T/r"
git config user.email t@localhost && git config user.name test
git cat-file -e 12e8f44 2>/dev/null || skip "a shallow clone: 12e8f44 is not in it"
check() { sh scripts/check-release.sh >"$T/out" 2>&1; }
recipe=meta-perfguide/recipes-benchmark/perfguide/perfguide_git.bb
mk=buildroot/package/perfguide/perfguide.mk
check || fail "style.release fails on the committed tree: $(cat "$T/out")"

# The stub Buildroot: its version suffix, and a git download that writes a
# tarball of the commit asked for.
mkdir -p "$T/br/support/download" "$T/br/package"
echo 'BR_FMT_VERSION_git = -git4' >"$T/br/package/pkg-download.mk"
cat >"$T/br/support/download/git" <<'EOF'
while getopts "$BR_BACKEND_DL_GETOPTS" o; do
	case $o in o) out=$OPTARG ;; u) url=${OPTARG#file://} ;; c) rev=$OPTARG ;; *) ;; esac
done
git -C "$url" archive --format=tar.gz -o "$out" "$rev"
EOF

# The old pin, lacking issue 26's hardening: refused, naming the round.
sed -i 's/^PERFGUIDE_RELEASE_REV = ".*"/PERFGUIDE_RELEASE_REV = "12e8f44a5bd8311ba2cef579b62bce9ecb6b4f23"/' "$recipe"
sed -i 's/^PERFGUIDE_RELEASE_VERSION = .*/PERFGUIDE_RELEASE_VERSION = 12e8f44a5bd8311ba2cef579b62bce9ecb6b4f23/' "$mk"
check && fail "a pin without the third hardening round passed"
grep -q 'lacks the hardening fix 3afc2a5' "$T/out" || fail "the refusal does not name the round: $(cat "$T/out")"
git checkout -q -- "$recipe" "$mk"
# Yocto and Buildroot pinning different commits; the changelog behind VERSION.
sed -i 's/^PERFGUIDE_RELEASE_VERSION = .*/PERFGUIDE_RELEASE_VERSION = 3afc2a5000000000000000000000000000000000/' "$mk"
check && fail "two different pins passed"
grep -q 'the Yocto recipe pins .*, the Buildroot package 3afc2a5' "$T/out" || fail "$(cat "$T/out")"
git checkout -q -- "$mk"
echo 9.9.9 >VERSION
check && fail "a changelog behind VERSION passed"
grep -q "debian/changelog's version '.*' is not VERSION's '9.9.9'" "$T/out" || fail "$(cat "$T/out")"
git checkout -q -- VERSION

# A release: VERSION, the changelog, then the pin on that commit.
sh scripts/release.sh "$T/br" 7.8.9 >"$T/rel" 2>&1 || fail "release.sh failed: $(cat "$T/rel")"
[ "$(cat VERSION)" = 7.8.9 ] && head -n 1 debian/changelog | grep -q '^perfguide (7.8.9) ' || fail "VERSION or the changelog"
pin=$(git rev-parse HEAD~1)
grep -q "^PERFGUIDE_RELEASE_REV = \"$pin\"\$" "$recipe" && grep -q '^PV = "7.8.9+git"$' "$recipe" ||
	fail "the recipe does not pin the release commit: $(grep -E '^(PV|PERFGUIDE_RELEASE_REV) ' "$recipe")"
grep -q "^PERFGUIDE_RELEASE_VERSION = $pin\$" "$mk" || fail "the Buildroot package does not pin it"
git show -s --format=%s HEAD~1 | grep -q '^release 7.8.9' || fail "the release commit: $(git log -2 --format=%s)"
check || fail "style.release fails after a release: $(cat "$T/out")"
[ -z "$(git status --porcelain --untracked-files=no)" ] || fail "release.sh left changes: $(git status --short)"

# A new hardening round merged and listed: the pin lacks it until the next release.
echo "a fix" >fix.txt && git add fix.txt && git commit -q -m "a hardening fix"
fix=$(git rev-parse --short=7 HEAD)
printf '| fourth: the test'"'"'s | 99 | %s |\n' "$fix" >>docs/security.md
git commit -q -am "security.md: the fourth round"
check && fail "a pin without the newly listed round passed"
grep -q "lacks the hardening fix $fix" "$T/out" || fail "$(cat "$T/out")"
sh scripts/release.sh "$T/br" >"$T/rel" 2>&1 || fail "release.sh (pin only) failed: $(cat "$T/rel")"
check || fail "style.release fails after the pin moved: $(cat "$T/out")"
[ "$(cat VERSION)" = 7.8.9 ] || fail "a pin-only release changed VERSION"

# A tarball of the tree (no .git): the checks that need no history, then a skip.
git archive --format=tar --prefix=t/ HEAD | tar -xf - -C "$T"
set +e
sh "$T/t/scripts/check-release.sh" >"$T/out" 2>&1
rc=$?
set -e
[ $rc -eq 77 ] && grep -q 'not a git checkout' "$T/out" || fail "outside git: exit $rc: $(cat "$T/out")"
echo ok
