# SPDX-License-Identifier: MIT
# The build that e2e.libc_only, e2e.crypto_nolib and e2e.storage_nolib run
# (a ctest fixture, tests/CMakeLists.txt): the tree without jansson,
# libcrypto, liburing and libaio, once for the three, in PG_NOLIB_BUILD.
. "$(dirname "$0")/lib.sh"
: "${PG_NOLIB_BUILD:?}"
nolib_build "$PG_NOLIB_BUILD"
ldd "$PG_NOLIB_BUILD/perfguide" 2>/dev/null | grep -E -q 'jansson|libcrypto|liburing|libaio' &&
	fail "linked an optional library anyway: $(ldd "$PG_NOLIB_BUILD/perfguide")"
echo "ok"
