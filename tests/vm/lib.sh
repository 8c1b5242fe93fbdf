# SPDX-License-Identifier: MIT
# Shared by the tests/vm/*.check.sh scripts that `make check-vm` runs.
here=$(cd "$(dirname "$0")" && pwd)
: "${PG_VM_BUILD:=$(cd "$here/../.." && pwd)/build-vm}"
export PG_VM_BUILD

fail() { echo "check-vm: FAIL: $*" >&2; exit 1; }
# A facility the host lacks (not the code under test): exit 77, as ctest.
skip() { echo "check-vm: SKIP: $*" >&2; exit 77; }
