#!/bin/sh
# SPDX-License-Identifier: MIT
# Writes the man pages from the binary's own option tables: perfguide(1) and
# perfguide-COMMAND(1) for every command it has (`perfguide help --man`).
# The binary runs here: a cross build passes its emulator (qemu-user).
#
# usage: cmake/make-man.sh DIR PERFGUIDE [EMULATOR ARGS...]
set -eu
dir=$1 bin=$2
shift 2
mkdir -p "$dir"
rm -f "$dir"/perfguide*.1
"$@" "$bin" help --man >"$dir/perfguide.1.tmp"
mv "$dir/perfguide.1.tmp" "$dir/perfguide.1"
for c in $("$@" "$bin" help --commands); do
	"$@" "$bin" help --man "$c" >"$dir/perfguide-$c.1.tmp"
	mv "$dir/perfguide-$c.1.tmp" "$dir/perfguide-$c.1"
done
