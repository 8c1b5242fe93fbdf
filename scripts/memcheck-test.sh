#!/bin/sh
# SPDX-License-Identifier: MIT
# ctest's memcheck test (make check): the build without sanitizers that
# valgrind needs (BUILD_DIR, an optimised build with -g and the tests), then
# scripts/memcheck.sh on it. A test of its own so that ctest runs it beside
# the others: they wait much of their time (shaped links, runs of a set
# length, child processes), and one after the other the two took 7 minutes
# of a 2-core machine. Its last line is also left in BUILD_DIR.log for
# make check to show. Exit 77 (skipped) when valgrind could not be
# installed, saying why.
#
# usage: scripts/memcheck-test.sh SOURCE_DIR BUILD_DIR JOBS
set -u
src=$1
b=$2
jobs=$3
cmake=${CMAKE_COMMAND:-cmake}
: >"$b.log"
if ! "$cmake" -S "$src" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-g -DPG_SANITIZE=OFF \
	-DBUILD_TESTING=ON >"$b.build.log" 2>&1 || ! "$cmake" --build "$b" -j "$jobs" >>"$b.build.log" 2>&1; then
	tail -n 30 "$b.build.log"
	echo "memcheck: the build without sanitizers failed (all of it: $b.build.log)" | tee "$b.log"
	exit 1
fi
sh "$src/scripts/memcheck.sh" "$b" "$jobs" >"$b.out" 2>&1
rc=$?
cat "$b.out"
tail -n 1 "$b.out" >"$b.log"
case $rc in
0) grep -q '^memcheck: SKIP: ' "$b.out" && { sed -n 's/^memcheck: SKIP: /SKIP: /p' "$b.out"; exit 77; } ;;
esac
exit $rc
