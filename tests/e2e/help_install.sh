# SPDX-License-Identifier: MIT
# The pages and what `cmake --install` puts in place: `perfguide help
# COMMAND` is `COMMAND --help`; the man pages are made from the same option
# tables (every option a command accepts is on its page and in its --help);
# `man perfguide-run` and the bash completion work from an installed tree;
# `list SELECTOR`; `report -o guide.pdf` is refused.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}

# help COMMAND and COMMAND --help: one page.
for c in $("$PG" help --commands); do
	"$PG" help "$c" >"$T/a" || fail "help $c failed"
	"$PG" "$c" --help >"$T/b" || fail "$c --help failed"
	cmp -s "$T/a" "$T/b" || fail "help $c and $c --help differ"
	"$PG" help --man "$c" >"$T/$c.1" || fail "help --man $c failed"
	grep -q "^\.TH PERFGUIDE.\{0,1\}-$(echo "$c" | tr a-z A-Z) 1 " "$T/$c.1" || fail "perfguide-$c.1 has no .TH line"
	# Every option the command accepts, on both pages.
	"$PG" help --options "$c" >"$T/opts" || fail "help --options $c failed"
	[ -s "$T/opts" ] || fail "help --options $c is empty"
	while read -r opt _; do
		grep -q -- "$opt" "$T/a" || fail "$c --help does not show $opt"
		grep -q -- "$(echo "$opt" | sed 's/-/\\\\-/g')" "$T/$c.1" || fail "perfguide-$c.1 does not show $opt"
	done <"$T/opts"
done
"$PG" help >"$T/usage" || fail "help failed"
grep -q '^  run ' "$T/usage" || fail "help lists no run"
expect_usage_error "help of no command" help nosuch
expect_usage_error "help of two commands" help run list
if command -v groff >/dev/null 2>&1; then
	"$PG" help --man >"$T/perfguide.1"
	for f in "$T"/*.1; do
		LC_ALL=C.UTF-8 groff -man -ww -z "$f" 2>"$T/groff" || fail "groff failed on $(basename "$f")"
		[ ! -s "$T/groff" ] || fail "groff warns on $(basename "$f"): $(head -n 3 "$T/groff")"
	done
fi

# list SELECTOR: the benchmarks run would take, nothing else.
"$PG" list mem >"$T/list" || fail "list mem failed"
grep -q '^mem.bw.rd ' "$T/list" || fail "list mem lacks mem.bw.rd"
! grep -q '^os\.' "$T/list" || fail "list mem shows os benchmarks"
[ "$("$PG" list 'mem.bw.r*' | grep -c '^mem')" -eq 2 ] || fail "list 'mem.bw.r*' is not rd and rdwr"
expect_usage_error "list of nothing" list no.such.bench

# report -o with an extension no format has: refused, nothing written.
if [ "${PG_HAVE_STORE:-ON}" = ON ]; then
	"$PG" run mem.bw.rd -p size=16k --runs 1 --min-time 0.01 --no-db --out "$T/r.jsonl" >/dev/null 2>&1 ||
		fail "a short run failed"
	expect_usage_error "report -o guide.pdf" report "$T/r.jsonl" -o "$T/guide.pdf"
	[ ! -e "$T/guide.pdf" ] || fail "report -o guide.pdf wrote a file"
	grep -q 'no format has that extension' "$T/err" || fail "report -o guide.pdf: $(cat "$T/err")"
	"$PG" report "$T/r.jsonl" -o "$T/guide.pdf" --format md 2>/dev/null || fail "--format md -o guide.pdf was refused"
fi

# cmake --install of this build into a scratch root.
build=$(dirname "$PG")
[ -f "$build/cmake_install.cmake" ] || skip "$build is not a CMake build directory"
DESTDIR="$T/root" "$CMAKE" --install "$build" --prefix /usr >"$T/install.log" 2>&1 ||
	fail "cmake --install failed: $(tail -n 5 "$T/install.log")"
r=$T/root/usr
for f in bin/perfguide share/man/man1/perfguide.1 share/man/man1/perfguide-run.1 \
	share/bash-completion/completions/perfguide share/perfguide/lava/perfguide.yaml \
	share/perfguide/lava/perfguide-run.sh share/perfguide/maps/openssl-cpu.csv share/doc/perfguide/README.md share/doc/perfguide/docs/methodology.md; do
	[ -f "$r/$f" ] || fail "cmake --install did not install $f"
done
for c in $("$PG" help --commands); do
	[ -f "$r/share/man/man1/perfguide-$c.1" ] || fail "no installed man page for $c"
done
if command -v man >/dev/null 2>&1; then
	MANPATH=$r/share/man MANWIDTH=80 man perfguide-run 2>"$T/man.err" >"$T/man.txt" || fail "man perfguide-run: $(cat "$T/man.err")"
	grep -q -- '--suite' "$T/man.txt" || fail "man perfguide-run does not show --suite"
fi

# The completion, from the installed tree, asking the installed binary.
command -v bash >/dev/null 2>&1 || { echo "ok (no bash: completion not tried)"; exit 0; }
complete_line() {
	PATH="$r/bin:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_perfguide
		printf "%s\n" "${COMPREPLY[@]}"' sh "$r/share/bash-completion/completions/perfguide" "$@"
}
got=$(complete_line perfguide ru | sort | tr '\n' ' ')
[ "$got" = "run runs " ] || [ "$got" = "run " ] || fail "completing 'ru': '$got'"
complete_line perfguide run mem.bw.r | grep -qx mem.bw.rd || fail "completing a benchmark id"
complete_line perfguide run m | grep -qx mem || fail "completing a group"
complete_line perfguide run --su | grep -qx -- --suite || fail "completing an option"
[ "$(complete_line perfguide run --suite q)" = quick ] || fail "completing --suite's value"
complete_line perfguide run mem.bw.rd -p s | grep -qx 'size=' || fail "completing a -p parameter"
complete_line perfguide help re | grep -qx report || [ "${PG_HAVE_STORE:-ON}" != ON ] || fail "completing help's COMMAND"
echo ok
