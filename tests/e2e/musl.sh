# SPDX-License-Identifier: MIT
# The tree with musl (Buildroot and Alpine boards use it): a static,
# stripped build with musl-gcc and libc alone, its unit tests (cmocka's
# calls from tests/unit/mini-cmocka: Debian's libcmocka is glibc's) and a
# short run. Prints the binary's size, the figure docs/install.md gives.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}
need_cmd musl-gcc musl-tools
CTEST=$(dirname "$CMAKE")/ctest
[ -x "$CTEST" ] || CTEST=ctest
# musl-gcc sees musl's headers only: the kernel's (linux/, asm/) from the
# host's linux-libc-dev, and nothing else of glibc's.
multi=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
mkdir -p "$T/kinc"
for d in /usr/include/linux /usr/include/asm-generic "/usr/include/$multi/asm"; do
	[ -d "$d" ] || skip "no kernel headers at $d (Debian's linux-libc-dev)"
	ln -s "$d" "$T/kinc/$(basename "$d")"
done
off=""
for l in JANSSON CRYPTO SQLITE LIBURING LIBAIO ALSA LIBPQ; do
	off="$off -DPG_WITH_$l=OFF"
done
# shellcheck disable=SC2086
CC=musl-gcc "$CMAKE" -S "$PG_SOURCE_DIR" -B "$T/b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS="-isystem $T/kinc" \
	-DPG_STATIC=ON -DPG_STRIP=ON -DPG_MINI_CMOCKA=ON -DBUILD_TESTING=ON $off >"$T/cfg.log" 2>&1 \
	|| fail "configure with musl-gcc failed: $(tail -n 5 "$T/cfg.log")"
"$CMAKE" --build "$T/b" -j 2 >"$T/build.log" 2>&1 || fail "musl build failed: $(grep -m 5 'error' "$T/build.log")"
file "$T/b/perfguide" | grep -q 'statically linked' || fail "not a static binary: $(file "$T/b/perfguide")"
"$T/b/perfguide" info >"$T/info" || fail "info failed"
grep -q '^libc  *not glibc' "$T/info" || fail "info does not say the libc is not glibc: $(grep '^libc' "$T/info")"
"$T/b/perfguide" run mem.bw.rd -p size=64k $FAST >"$T/out" 2>"$T/err" || fail "run failed: $(cat "$T/err")"
grep -q '^mem.bw.rd .*MB/s' "$T/out" || fail "no result line: $(cat "$T/out")"
"$CTEST" --test-dir "$T/b" -L unit -j 2 >"$T/ctest.log" 2>&1 || fail "unit tests failed with musl: $(grep -E 'Failed|\*\*\*' "$T/ctest.log" | head -n 10)"
n=$(sed -n 's/^100% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$T/ctest.log")
[ "${n:-0}" -gt 10 ] || fail "too few unit tests ran: $(tail -n 5 "$T/ctest.log")"
echo "musl: static, stripped, libc only: $(stat -c %s "$T/b/perfguide") bytes; $n unit tests passed"
