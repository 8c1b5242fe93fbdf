# SPDX-License-Identifier: MIT
# The audio group where there is no sound card (the VM test, tests/vm/
# audio.check.sh, has real drivers): every benchmark is a skip whose reason
# names the device, the run completes, and bad parameters are refused
# before anything opens.
. "$(dirname "$0")/lib.sh"
cd "$T"
[ ! -e /dev/snd/pcmC0D0p ] || skip "this machine has a sound card: the VM test covers audio"

"$PG" run audio -p device=hw:Nope,0 -p time=1 --runs 1 --no-db >"$T/out" 2>"$T/err" ||
	fail "run failed: $(cat "$T/err")"
for b in playback capture loop; do
	grep -q "^audio\.$b .* skipped: " "$T/out" || fail "no skip line for audio.$b: $(cat "$T/out")"
done
if ! grep -q 'built without alsa-lib' "$T/out"; then
	grep -q "^audio\.playback .*skipped: cannot open ALSA device 'hw:Nope,0' for playback" "$T/out" ||
		fail "the playback skip does not name the device: $(cat "$T/out")"
	grep -q "^audio\.capture .*skipped: cannot open ALSA device 'hw:Nope,0' for capture" "$T/out" ||
		fail "the capture skip does not name the device: $(cat "$T/out")"
fi
if [ "${PG_HAVE_JANSSON:-ON}" = ON ] && command -v python3 >/dev/null 2>&1; then
	"$PG" run audio.playback -p device=hw:Nope,0 --runs 1 --out "$T/r.jsonl" --no-db >/dev/null 2>&1 ||
		fail "run with --out failed"
	python3 - "$T/r.jsonl" <<'PY' || fail "the results file is wrong"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
res = [r for r in recs if r["type"] == "result"]
assert len(res) == 1 and res[0]["status"] == "skipped", res
assert res[0]["params"]["device"] == "hw:Nope,0", res[0]["params"]
assert recs[-1]["type"] == "end" and recs[-1]["status"] == "complete", recs[-1]
PY
fi

expect_usage_error "buffer under two periods" run audio.playback -p period=256 -p buffer=300
expect_usage_error "stall over half the time" run audio.capture -p stall=1500 -p time=2
expect_usage_error "a loop from a device to itself" run audio.loop -p capture=hw:Loopback,0,0
expect_usage_error "an unknown format" run audio.playback -p format=FLOAT_LE
echo "ok"
