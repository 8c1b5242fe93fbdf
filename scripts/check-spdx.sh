#!/bin/sh
# SPDX-License-Identifier: MIT
# make check's style.spdx: every source file says its licence in its first
# lines (SPDX-License-Identifier: MIT, LICENSE's; GPL-2.0 for the kernel
# module under tests/vm/rpmsg_echo/), and LICENSE is the MIT licence.
# Sources are C, headers, shell, Python, CMake, make, the bash completion,
# the LAVA definition and the Yocto layer; not data (fixtures, corpora),
# documents, the Debian metadata, nor the Buildroot package, whose
# check-package wants its own first lines (its licence is PERFGUIDE_LICENSE).
#
# usage: scripts/check-spdx.sh [--add]
#   --add  puts the MIT line into the files that lack one (after a #! line;
#          /* ... */ in C), for a new file
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
add=0
[ "${1:-}" = --add ] && add=1

# The files: git's list in a checkout, else every file but build output.
files() {
	if git rev-parse --git-dir >/dev/null 2>&1; then
		git ls-files -co --exclude-standard
	else
		find . -type f ! -path './.git/*' ! -path './build*' | sed 's|^\./||'
	fi | grep -E '\.(c|h|sh|py|cmake|inc|in|bb|bbappend|conf|yaml)$|(^|/)(CMakeLists\.txt|Makefile|Kbuild)$|^completion/perfguide$|^debian/rules$' |
		grep -Ev '^(tests/fixtures|fuzz/corpus|buildroot/package)/'
}

grep -q '^MIT License$' LICENSE 2>/dev/null && grep -q 'Copyright (c) .* the perfguide authors' LICENSE ||
	{ echo "check-spdx: LICENSE is not the MIT licence of the perfguide authors" >&2; exit 1; }
missing=0
for f in $(files); do
	[ -f "$f" ] || continue
	id=$(head -n 3 "$f" | sed -n 's/.*SPDX-License-Identifier: \([A-Za-z0-9.+-]*\).*/\1/p' | head -n 1)
	case "$f:$id" in
	tests/vm/rpmsg_echo/*:GPL-2.0) continue ;;
	tests/vm/rpmsg_echo/*:*) ;;
	*:MIT) continue ;;
	esac
	if [ $add -eq 1 ] && [ -z "$id" ]; then
		case $f in
		*.c|*.h|*.c.in|*.h.in) line='/* SPDX-License-Identifier: MIT */' ;;
		*) line='# SPDX-License-Identifier: MIT' ;;
		esac
		if head -n 1 "$f" | grep -q '^#!'; then
			sed -i "1a $line" "$f"
		else
			sed -i "1i $line" "$f"
		fi
		echo "check-spdx: added to $f"
		continue
	fi
	echo "check-spdx: $f: ${id:-no SPDX-License-Identifier in its first 3 lines}" >&2
	missing=$((missing + 1))
done
[ $missing -eq 0 ] || { echo "check-spdx: $missing file(s); scripts/check-spdx.sh --add puts the MIT line in" >&2; exit 1; }
echo "check-spdx: every source file names its licence"
