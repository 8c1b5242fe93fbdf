#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check-vm`: the tests that need a kernel this machine does not have.
# Each tests/vm/<name>.check.sh boots its own VM with tests/vm/run-in-vm.sh
# (a guest script plus a check of what it sent back); a new group adds its
# file and nothing here changes.
#
# usage: tests/vm/check-vm.sh [NAME...]   (default: every *.check.sh)
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PG_VM_BUILD:=$(cd "$here/../.." && pwd)/build-vm}"
export PG_VM_BUILD

if [ $# -gt 0 ]; then
	tests=""
	for n in "$@"; do
		[ -f "$here/$n.check.sh" ] || { echo "check-vm: no test '$n' (tests/vm/$n.check.sh)" >&2; exit 2; }
		tests="$tests $here/$n.check.sh"
	done
else
	tests=$(ls "$here"/*.check.sh)
fi

start=$(date +%s)
passed="" failed="" skipped=""
for t in $tests; do
	n=$(basename "$t" .check.sh)
	t0=$(date +%s)
	sh "$t"
	rc=$?
	dt=$(($(date +%s) - t0))
	case $rc in
	0) passed="$passed $n(${dt}s)" ;;
	77) skipped="$skipped $n" ;;
	*) failed="$failed $n" ;;
	esac
done
echo "check-vm: passed:${passed:- none}; skipped:${skipped:- none}; failed:${failed:- none}; $(($(date +%s) - start)) s"
[ -z "$failed" ]
