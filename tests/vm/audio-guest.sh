# SPDX-License-Identifier: MIT
# Guest side of `make check-vm` for the audio group (run by run-in-vm.sh in
# the VM, busybox sh): playback and capture on snd-dummy, the checked loop
# on snd-aloop, xruns provoked, a missing device; aplay and arecord on the
# same devices with the same parameters beside them. Results in $PG_OUT,
# checked on the host by audio.check.sh.
set -u
fail() { echo "audio-guest: $*"; exit 1; }

cat /proc/asound/cards >"$PG_OUT/cards.txt" 2>&1 || fail "no /proc/asound/cards: no sound core"
grep -q Loopback /proc/asound/cards || fail "snd-aloop made no Loopback card"
# snd-dummy again with fake_buffer=0: it then has a real buffer, and every
# frame is copied to or from it, as with a real card.
rmmod snd_dummy 2>/dev/null
insmod "/lib/modules/$(uname -r)/kernel/sound/drivers/snd-dummy.ko" fake_buffer=0 ||
	fail "cannot load snd-dummy with fake_buffer=0"
[ "$(cat /sys/module/snd_dummy/parameters/fake_buffer)" = N ] || fail "snd-dummy has a fake buffer"
cat /proc/asound/cards >"$PG_OUT/cards.txt"

if ! perfguide list | grep -q '^audio\.playback'; then
	echo "audio-guest: this perfguide has no audio group"
	exit 1
fi
if perfguide run audio.playback -p device=hw:Dummy,0 -p time=1 --runs 1 --no-db 2>&1 |
	grep -q 'built without alsa-lib'; then
	echo "audio-guest: this perfguide was built without alsa-lib"
	: >"$PG_OUT/no-alsa"
	exit 0
fi

# A sane period for a TCG guest on a busy host, whose qemu may wait for a
# CPU for a good part of a second: 2048 frames (43 ms at 48 kHz) and 8 of
# them in the buffer (341 ms). snd-dummy runs at 5500 to 48000 Hz.
SANE="-p period=2048 -p buffer=16384 --runs 2 --no-db"
RATES="8000 22050 48000"
rc=0
# shellcheck disable=SC2086
perfguide run audio.playback audio.capture -p device=hw:Dummy,0 -p rate="$(echo $RATES | tr ' ' ,)" \
	-p time=1 $SANE --out "$PG_OUT/dummy.jsonl" || rc=1
# shellcheck disable=SC2086
perfguide run audio.loop -p rate=48000 -p time=2 $SANE --runs 3 --out "$PG_OUT/loop.jsonl" || rc=1
# The application stops for 400 ms, longer than an 85 ms buffer: an under-
# or overrun in every sample, counted.
perfguide run audio.playback audio.capture -p device=hw:Dummy,0 -p rate=48000 -p time=1 -p stall=400 \
	-p period=1024 -p buffer=4096 --runs 2 --no-db --out "$PG_OUT/stall.jsonl" || rc=1
# The seed's period of 64 frames (1.3 ms) in a guest whose CPU is emulated:
# what comes of it is counted, whatever it is.
perfguide run audio.playback -p device=hw:Dummy,0 -p rate=48000 -p time=1 -p period=64 --runs 2 --no-db \
	--out "$PG_OUT/period64.jsonl" || rc=1
# No such device: a skip naming it, and the run goes on.
perfguide run audio.playback audio.loop -p device=hw:Nope,0 -p time=1 --runs 1 --no-db \
	--out "$PG_OUT/missing.jsonl" >"$PG_OUT/missing.log" 2>&1 || rc=1

# aplay and arecord, as TI's scripts run them: the time to play (record)
# N frames, from the program's start to its end, and the system's CPU
# load over it from /proc/stat. The kernel's monotonic clock in ns is in
# /proc/timer_list (busybox's date has no %N).
now() { sed -n 's/^now at \([0-9]*\) nsecs$/\1/p' /proc/timer_list | head -n 1; }
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
peer() {
	tool=$1 rate=$2 period=$3 buffer=$4 frames=$5
	set -- $(busy)
	b0=$1 t0=$2 n0=$(now)
	if [ "$tool" = aplay ]; then
		head -c $((frames * 4)) /dev/zero >/tmp/in.raw
		n0=$(now)
		aplay -q -D hw:Dummy,0 -t raw -f S16_LE -r "$rate" -c 2 --period-size="$period" \
			--buffer-size="$buffer" /tmp/in.raw || return 1
	else
		arecord -q -D hw:Dummy,0 -t raw -f S16_LE -r "$rate" -c 2 --period-size="$period" \
			--buffer-size="$buffer" -s "$frames" /tmp/out.raw || return 1
	fi
	n1=$(now)
	set -- $(busy)
	echo "$tool $rate $period $frames $n0 $n1 $b0 $t0 $1 $2"
}
: >"$PG_OUT/peers.txt"
# Two seconds of audio each (the rest of the time is the program starting:
# one period alone shows how long that takes here), two rounds.
for round in 1 2; do
	for r in 8000 48000; do
		for tool in aplay arecord; do
			peer $tool "$r" 2048 16384 $((2 * r)) >>"$PG_OUT/peers.txt" ||
				{ echo "audio-guest: $tool failed"; rc=1; }
		done
	done
	peer aplay 48000 64 1024 96000 >>"$PG_OUT/peers.txt" || { echo "audio-guest: aplay failed"; rc=1; }
done
for tool in aplay arecord; do
	peer $tool 48000 2048 16384 2048 >>"$PG_OUT/peers.txt" || { echo "audio-guest: $tool failed"; rc=1; }
done
exit $rc
