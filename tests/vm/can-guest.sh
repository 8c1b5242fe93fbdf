# SPDX-License-Identifier: MIT
# Guest side of `make check-vm` for the CAN group (run by run-in-vm.sh in
# the VM, busybox sh), and of bench/can-vs-canutils.sh. Makes vcan, vxcan
# and, on the two emulated SJA1000 controllers qemu puts on one bus
# (kvaser_pci), can0 and can1 at 1 Mbit/s; runs every CAN benchmark on
# them with each interface's kernel counters read before and after; checks
# happen on the host. With pgcan.rounds=N (and pgcan.time=SECONDS) on the
# kernel command line it then runs N rounds of perfguide beside can-utils
# (cangen, candump, canbusload) on the same interfaces.
set -u
fail() { echo "can-guest: $*"; exit 1; }
L=/data/can-links
O=$PG_OUT
FAST="--runs 1 --no-db"

# can-utils and tc from Debian, with their libraries (busybox runs its own
# applets first: tc is called by its path).
export PATH="/data:$PATH"

$L vcan vcan0 && $L up vcan0 || fail "cannot make vcan0"
$L vcan vcanfd && $L mtu vcanfd 72 && $L up vcanfd || fail "cannot make vcanfd (CAN FD)"
$L vcan vcan2 || fail "cannot make vcan2"		# left down
$L vxcan vxcan0 vxcan1 && $L up vxcan0 && $L up vxcan1 || fail "cannot make vxcan0/vxcan1"
controllers=0
if [ -e /sys/class/net/can0 ] && [ -e /sys/class/net/can1 ]; then
	for c in can0 can1; do
		$L bitrate $c 1000000 && $L up $c || fail "cannot set $c to 1 Mbit/s"
	done
	controllers=1
fi
for i in /sys/class/net/*; do
	n=${i##*/}
	echo "$n type=$(cat "$i/type") mtu=$(cat "$i/mtu") txqlen=$(cat "$i/tx_queue_len") flags=$(cat "$i/flags") driver=$(basename "$(readlink "$i/device/driver" 2>/dev/null)" 2>/dev/null)"
done >"$O/links.txt"

# counters FILE: every CAN interface's tx_packets, rx_packets, rx_dropped.
counters() {
	for i in vcan0 vcanfd vxcan0 vxcan1 can0 can1; do
		s=/sys/class/net/$i/statistics
		[ -d $s ] && echo "$i $(cat $s/tx_packets) $(cat $s/rx_packets) $(cat $s/rx_dropped)"
	done >"$1"
}
# run NAME perfguide-arguments...: one perfguide run, counters around it
# (after SETTLE seconds: what a queue still holds leaves it meanwhile).
run() {
	n=$1
	shift
	counters "$O/$n.before"
	# shellcheck disable=SC2086
	perfguide run "$@" $FAST --out "$O/$n.jsonl" >"$O/$n.log" 2>&1
	echo $? >"$O/$n.rc"
	[ -n "${SETTLE:-}" ] && sleep "$SETTLE"
	counters "$O/$n.after"
}

run tx-vcan can.tx -p if=vcan0 -p time=1
run tx-eff can.tx -p if=vcan0 -p id=12345678 -p size=5 -p time=1
run tx-fd can.tx -p if=vcanfd -p fd=1 -p size=64 -p time=1
run tx-vxcan can.tx -p if=vxcan0 -p time=1
run rr-gw can.rr -p if=vcan0 -p time=1
run rr-vxcan can.rr -p if=vxcan0 -p time=1
run load-vcan can.load -p if=vcan0 -p time=1
run absent can.tx -p if=vcan9,vcan2 -p time=1
# canfdtest's device-under-test side answers as a remote node would.
if command -v canfdtest >/dev/null 2>&1; then
	canfdtest vxcan1 >"$O/canfdtest-dut.log" 2>&1 &
	dut=$!
	sleep 0.2
	run rr-remote can.rr -p if=vxcan0 -p peer=remote -p time=1
	kill $dut
	wait $dut 2>/dev/null
fi
# A second can-gw rule that damages the last byte of every answer: the
# check has to catch it.
if command -v cangw >/dev/null 2>&1; then
	cangw -A -s vcan0 -d vcan0 -i -e -f 77:C00007FF -m XOR:ID:F.0.00000000000000FF
	run rr-damaged can.rr -p if=vcan0 -p time=1
	cangw -F
fi
# A queue that lets 500 frames a second through and holds 64: the writes
# it refuses are counted, the rate is the queue's. On a vcan the frames
# come back as the queue takes them, and leave it later.
if [ -x /data/tc ]; then
	/data/tc qdisc add dev vcan0 root tbf rate 64kbit burst 1kb limit 1kb || fail "tc: no tbf queue on vcan0"
	SETTLE=0.5 run tx-tbf can.tx -p if=vcan0 -p time=1
	/data/tc qdisc del dev vcan0 root
fi
if [ $controllers -eq 1 ]; then
	run tx-can1 can.tx -p if=can0 -p peer=can1 -p time=1
	run rr-can can.rr -p if=can0 -p peer=can1 -p time=1
	run load-can can.load -p if=can0 -p time=1
	run load-can-eff can.load -p if=can1 -p id=1abcdef0 -p size=4 -p time=1
fi
cat /proc/modules >"$O/modules.txt"

rounds=$(sed -n 's/.*pgcan\.rounds=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$rounds" ] || exit 0
command -v cangen >/dev/null 2>&1 || fail "pgcan.rounds needs can-utils in the guest"

# stamp: seconds since boot, 10 ms resolution.
stamp() { cut -d' ' -f1 /proc/uptime; }
tx() { cat /sys/class/net/$1/statistics/tx_packets; }
T=$(sed -n 's/.*pgcan\.time=\([0-9]*\).*/\1/p' /proc/cmdline)
: "${T:=2}"
# Rounds alternate the tools, each for T seconds on the same interface:
#   tx: perfguide can.tx (writer and checker) | cangen -g 0 with candump
#       reading what it sends | cangen -g 0 alone
#   load: perfguide can.load on can0 | cangen -g 0 on can0, both with
#       canbusload -e can0@1000000 watching (its per-second lines add up
#       to every frame and bit of the run)
r=1
while [ $r -le "$rounds" ]; do
	perfguide run can.tx -p if=vcan0 -p time="$T" --runs 1 --no-db --out "$O/cmp-pg-vcan-$r.jsonl" >/dev/null 2>&1
	for mode in dump alone; do
		if [ $mode = dump ]; then
			candump -T 1000 vcan0,77:7FF >/tmp/dump 2>&1 &
			d=$!
			sleep 0.5
		fi
		t0=$(stamp)
		n0=$(tx vcan0)
		timeout -s INT "$T" cangen vcan0 -g 0 -I 77 -L 8 -D i -p 10 >/dev/null 2>&1
		n1=$(tx vcan0)
		t1=$(stamp)
		got=""
		if [ $mode = dump ]; then
			wait $d
			got=$(grep -c ' 077 ' /tmp/dump)
		fi
		echo "round=$r tool=cangen-$mode if=vcan0 frames=$((n1 - n0)) seconds=$(echo "$t1 - $t0" | bc) received=$got"
	done
	if [ $controllers -eq 1 ]; then
		canbusload -e can0@1000000 >"$O/cmp-canbusload-pg-$r.txt" 2>&1 &
		b=$!
		sleep 0.5	# it reads from its first frame on
		perfguide run can.load -p if=can0 -p time="$T" --runs 1 --no-db --out "$O/cmp-pg-load-$r.jsonl" >/dev/null 2>&1
		sleep 1.5	# canbusload prints the last second
		kill -INT $b
		wait $b 2>/dev/null
		canbusload -e can0@1000000 >"$O/cmp-canbusload-cangen-$r.txt" 2>&1 &
		b=$!
		sleep 0.5
		t0=$(stamp)
		n0=$(tx can0)
		timeout -s INT "$T" cangen can0 -g 0 -I 77 -L 8 -D i -p 10 >/dev/null 2>&1
		n1=$(tx can0)
		t1=$(stamp)
		sleep 1.5
		kill -INT $b
		wait $b 2>/dev/null
		echo "round=$r tool=cangen-alone if=can0 frames=$((n1 - n0)) seconds=$(echo "$t1 - $t0" | bc) received="
	fi
	r=$((r + 1))
done >"$O/compare.txt"
exit 0
