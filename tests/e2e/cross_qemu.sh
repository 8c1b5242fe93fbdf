# SPDX-License-Identifier: MIT
# The static cross builds run under qemu-user: list, and one short memory
# benchmark whose results file is read back. A static build has no
# alsa-lib (Debian ships no libasound.a): its audio group says so.
. "$(dirname "$0")/lib.sh"
: "${PG_SOURCE_DIR:?}"
CMAKE=${CMAKE_COMMAND:-cmake}
ran=0 why=""
for t in aarch64-linux-gnu:aarch64:arm64 arm-linux-gnueabihf:arm:armhf; do
	triple=${t%%:*}
	a=${t##*:}
	qa=$(echo "$t" | cut -d: -f2)
	q=qemu-$qa
	if ! command -v "$triple-gcc" >/dev/null 2>&1 || ! command -v "$q" >/dev/null 2>&1; then
		w=$(deps_why "gcc-$triple" qemu-user || echo "no $triple-gcc or $q")
		echo "$triple: not tested: $w" >&2
		why="$why${why:+; }$triple: $w"
		continue
	fi
	# The target's libraries scripts/deps.sh could not install: built without.
	for l in libjansson-dev libsqlite3-dev libssl-dev liburing-dev libaio-dev; do
		if w=$(deps_why "$l:$a"); then echo "$triple: built without $l: $w" >&2; fi
	done
	b="$T/build-$triple"
	"$CMAKE" -S "$PG_SOURCE_DIR" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$PG_SOURCE_DIR/cmake/$triple.cmake" \
		$BUILD_UNOPT -DPG_STATIC=ON -DBUILD_TESTING=OFF >"$T/cfg.log" 2>&1 \
		|| fail "$triple: configure failed: $(tail -n 5 "$T/cfg.log")"
	"$CMAKE" --build "$b" -j 2 >"$T/build.log" 2>&1 || fail "$triple: build failed: $(tail -n 20 "$T/build.log")"
	file "$b/perfguide" 2>/dev/null | grep -q 'statically linked' || fail "$triple: binary is not static"
	"$q" "$b/perfguide" list >"$T/list" || fail "$triple: list failed under $q"
	# The binary names the backends the build found, and why it lacks the others.
	want=$(sed -n 's/^-- backends: //p' "$T/cfg.log")
	"$q" "$b/perfguide" info >"$T/info" || fail "$triple: info failed under $q"
	have=$(sed -n 's/^backends  *//p' "$T/info")
	[ -n "$want" ] && [ "$have" = "$want" ] || fail "$triple: info says backends '$have', the build found '$want'"
	# A static binary runs the libraries it was built with.
	grep '^lib ' "$T/info" | grep -q 'built with' && fail "$triple: a static binary runs other library versions: $(grep '^lib ' "$T/info")"
	grep -q '^without .*alsa (a static build: Debian ships no static alsa-lib' "$T/info" \
		|| fail "$triple: info does not say why alsa is missing: $(grep '^without' "$T/info")"
	grep -q '^mem.bw.rd ' "$T/list" || fail "$triple: list lacks mem.bw.rd"
	out=""
	grep -q "^-- jansson: /" "$T/cfg.log" && out="--out $T/$triple.jsonl"
	# shellcheck disable=SC2086
	"$q" "$b/perfguide" run mem.bw.rd -p size=64k --runs 2 --min-time 0.02 $out >"$T/run" 2>&1 \
		|| fail "$triple: run failed under $q: $(cat "$T/run")"
	grep -q '^mem.bw.rd .*MB/s' "$T/run" || fail "$triple: no result line: $(cat "$T/run")"
	if [ -n "$out" ]; then
		grep -q '"bench":"mem.bw.rd".*"status":"ok"' "$T/$triple.jsonl" || fail "$triple: no result record"
		grep -q "\"arch\":\"$qa" "$T/$triple.jsonl" || fail "$triple: machine is not $qa"
		grep -q '"virt":"qemu-user","emulated":true' "$T/$triple.jsonl" ||
			fail "$triple: the run under $q is not marked emulated: $(head -c 3000 "$T/$triple.jsonl")"
	fi
	"$q" "$b/perfguide" run audio.playback -p time=1 --runs 1 >"$T/audio" 2>&1 \
		|| fail "$triple: audio run failed under $q: $(cat "$T/audio")"
	grep -q '^audio.playback .*skipped: built without alsa-lib: a static build' "$T/audio" \
		|| fail "$triple: the static build's audio skip does not say why: $(cat "$T/audio")"
	echo "$triple: ok"
	ran=1
done
[ $ran -eq 1 ] || skip "no cross toolchain with qemu-user (make cross-aarch64 installs them): $why"
echo "ok"
