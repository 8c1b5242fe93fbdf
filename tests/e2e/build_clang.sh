# SPDX-License-Identifier: MIT
# clang builds the whole tree with -Wall -Wextra -Werror too.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}
need_cmd clang clang
CC=clang "$CMAKE" -S "$PG_SOURCE_DIR" -B "$T/b" $BUILD_UNOPT -DBUILD_TESTING=ON \
	>"$T/cfg.log" 2>&1 || fail "configure with clang failed: $(tail -n 5 "$T/cfg.log")"
"$CMAKE" --build "$T/b" -j 2 >"$T/build.log" 2>&1 || fail "clang build failed: $(grep -m 10 -E 'error|warning' "$T/build.log")"
"$T/b/perfguide" run mem.bw.fcp -p size=64k --runs 2 --min-time 0.01 >/dev/null 2>&1 \
	|| fail "clang-built binary failed to run"
echo "ok"
