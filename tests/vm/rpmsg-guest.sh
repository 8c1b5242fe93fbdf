#!/bin/sh
# SPDX-License-Identifier: MIT
# Guest side of tests/vm/rpmsg.check.sh: loads the kernel's RPMsg modules and
# the echo remote (tests/vm/rpmsg_echo), runs the msg group through that
# bus, and writes what the host checks to $PG_OUT. Only the modules failing
# to load is fatal here; everything else is judged on the host.
set -u
o=$PG_OUT
p=/sys/module/rpmsg_echo/parameters
for m in rpmsg_core rpmsg_ns rpmsg_char rpmsg_ctrl; do
	insmod /data/rpmsg/$m.ko || exit 125
done
# Four endpoints of TI's echo service name, at TI's address 13 and up.
insmod /data/rpmsg/rpmsg_echo.ko service=ti.ipc4.ping-pong addr=13 endpoints=4 || exit 125
ls /sys/bus/rpmsg/devices >$o/bus.txt
up() { cut -d' ' -f1 /proc/uptime; }
run() { echo "$(up) $*" >>$o/phases.txt; perfguide run --no-db "$@"; }
# Waits until N endpoint devices of ours exist (the benchmark is set up).
wait_epts() {
	i=0
	while [ $i -lt 200 ]; do
		[ "$(ls /sys/class/rpmsg | grep -c '^rpmsg[0-9]')" -ge "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Exact counts: every message echoed once, none more.
e0=$(cat $p/echoed)
run msg.rpmsg.rr msg.rpmsg.stream -p channels=1,4 -p size=1,496 -p count=300 --runs 2 \
	--out $o/counts.jsonl >$o/counts.log 2>&1
echo $? >$o/counts.rc
echo $(($(cat $p/echoed) - e0)) >$o/counts.echoed

# Flow control: one message in flight for rr; a slow remote (200 us a
# message) with a window larger than its 256 buffers fills them all, and the
# writes wait for buffers instead of failing.
echo 0 >$p/peak
run msg.rpmsg.rr -p count=200 --runs 1 --out $o/flow-rr.jsonl >$o/flow-rr.log 2>&1
echo "$? $(cat $p/peak)" >$o/flow-rr.txt
echo 200 >$p/delay_us
echo 0 >$p/peak
run msg.rpmsg.stream -p window=1000 -p count=1000 --runs 1 --out $o/flow-stream.jsonl \
	>$o/flow-stream.log 2>&1
echo "$? $(cat $p/peak)" >$o/flow-stream.txt
echo 0 >$p/delay_us

# The table: channels x size, both benchmarks, about 1000 messages a sample.
for ch in 1 8 32; do
	run msg.rpmsg.rr msg.rpmsg.stream -p channels=$ch -p size=1,8,128,496 \
		-p count=$((1024 / ch)) --runs 2 --out $o/table-$ch.jsonl >$o/table-$ch.log 2>&1
	echo $? >$o/table-$ch.rc
done

# Remotes by name: the service, one that is not there, a remote processor
# that is not there (this bus has none).
run msg.rpmsg.rr -p remote=ti.ipc4.ping-pong,nosuch,0 -p count=10 --runs 1 \
	--out $o/remote.jsonl >$o/remote.log 2>&1
echo $? >$o/remote.rc

# A message larger than RPMsg's 496 bytes: refused before anything runs.
run msg.rpmsg.rr -p size=497 --out $o/oversize.jsonl >$o/oversize.log 2>&1
echo $? >$o/oversize.rc

# A remote that stops answering in the middle of a sample.
perfguide run --no-db msg.rpmsg.rr -p time=30 -p timeout=500 --runs 1 --out $o/stop.jsonl \
	>$o/stop.log 2>&1 &
pid=$!
wait_epts 1 || echo "no endpoint appeared" >>$o/stop.log
sleep 1
echo 1 >$p/stop
t0=$(up)
wait $pid
echo "$? $t0 $(up)" >$o/stop.txt
ls /sys/class/rpmsg >$o/stop.after
# ... and one that does not answer from the start.
run msg.rpmsg.stream -p timeout=300 --runs 1 --out $o/stop0.jsonl >$o/stop0.log 2>&1
echo $? >$o/stop0.rc
echo 0 >$p/stop

# Ctrl-C: the endpoints are destroyed.
# (perfguide itself in the background: a shell function there would be a
# subshell, which ignores SIGINT and does not pass it on.)
perfguide run --no-db msg.rpmsg.stream -p channels=4 -p time=30 --runs 1 --out $o/int.jsonl \
	>$o/int.log 2>&1 &
pid=$!
wait_epts 4 || echo "the endpoints did not appear" >>$o/int.log
sleep 1
ls /sys/class/rpmsg >$o/int.before
t0=$(up)
kill -INT $pid
wait $pid
echo "$? $t0 $(up)" >$o/int.txt
ls /sys/class/rpmsg >$o/int.after

# A perfguide killed outright leaves its endpoints; the next run removes them.
perfguide run --no-db msg.rpmsg.rr -p channels=2 -p time=30 --runs 1 --out $o/kill.jsonl \
	>$o/kill.log 2>&1 &
pid=$!
wait_epts 2 || echo "the endpoints did not appear" >>$o/kill.log
kill -KILL $pid
wait $pid 2>/dev/null
ls /sys/class/rpmsg >$o/kill.left
run msg.rpmsg.rr -p count=10 --runs 1 --out $o/reap.jsonl >$o/reap.log 2>&1
ls /sys/class/rpmsg >$o/reap.after

ls /sys/class/rpmsg >$o/final.txt
dmesg >$o/dmesg.txt
echo "$(up) end" >>$o/phases.txt
exit 0
