#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a test script inside a throw-away Linux virtual machine, for tests
# that need kernel drivers the host's own kernel lacks (AF_ALG crypto,
# rpmsg, storage...) or another architecture's kernel (--arch aarch64: a
# real arm64 kernel's /proc and /sys). The guest is Debian's stock kernel
# (downloaded with apt-get download and unpacked, never installed) booted
# by qemu-system-x86_64 (or qemu-system-aarch64 -M virt) from an initramfs
# that holds busybox-static, the kernel modules asked for, perfguide
# (static, or dynamic with its shared libraries) and the caller's script.
# What the script writes to $PG_OUT comes back to the host; the script's
# exit status is this command's. See docs/testing-vm.md.
#
# usage: tests/vm/run-in-vm.sh --script FILE [options]; --help lists them.
set -eu

me=run-in-vm
src=$(cd "$(dirname "$0")/../.." && pwd)
: "${PG_VM_BUILD:=$src/build-vm}"

usage() {
	cat <<EOF
usage: tests/vm/run-in-vm.sh --script FILE [options]

  --script FILE       shell script the guest runs as root (busybox sh), with
                      perfguide on PATH and PG_OUT=/out; its exit status is ours
  --out DIR           where the guest's /out comes back, over files of the same
                      name (default: $PG_VM_BUILD/out)
  --modules "M ..."   kernel modules to load at boot, with their dependencies,
                      in dependency order
  --module-dirs "D ..."
                      ship every module under these directories of the
                      kernel's tree (e.g. "crypto arch/x86/crypto lib/crypto")
                      so the kernel can load what it asks for (modprobe)
  --file SRC[:DEST]   also copy SRC into the guest (default DEST: /data/NAME);
                      may be repeated
  --perfguide BIN     the perfguide to put in the guest (default: build a
                      static one in $PG_VM_BUILD); a dynamic one comes with
                      the shared libraries and loader ldd lists for it
  --arch ARCH         x86_64 (default) or aarch64: qemu-system-aarch64 -M virt
                      (TCG), Debian's arm64 kernel and busybox-static, and a
                      static perfguide cross-built as make cross-aarch64 does
  --bin PROG          also put the program PROG (a path, or a name on PATH)
                      in the guest's /usr/bin, with its shared libraries
                      (ldd); may be repeated
  --kernel-package P  Debian kernel package (default: linux-image-amd64, or
                      linux-image-arm64 with --arch aarch64)
  --cpu MODEL         qemu's -cpu (aarch64 default: cortex-a72; x86_64: max
                      under TCG, host under KVM)
  --append "ARGS"     more kernel command-line arguments
  --qemu-args "ARGS"  more qemu arguments (a disk, a device: "-drive ...")
  --memory SIZE       guest memory (default: 512M)
  --smp N             guest CPUs (default: 1)
  --timeout SEC       kill the guest after SEC seconds (default: 300)
  -v, --verbose       show the whole console, kernel messages included
  --keep              keep the run directory (initramfs, console, raw results)

Exit status: the guest script's; 125 when the machine could not be built,
booted or read back (one line says why); 2 for bad usage.
Environment: PG_VM_BUILD (build and cache directory, default build-vm);
PG_VM_ACCEL (auto: KVM when /dev/kvm is usable, else TCG; kvm; tcg). When KVM
cannot start the guest, it runs again under TCG, and one line says so.
EOF
}

die() { echo "$me: $*" >&2; exit 125; }
bad() { echo "$me: $*" >&2; exit 2; }

script="" out="" modules="" moddirs="" files="" bins="" pg="" kmeta="" arch=x86_64 cpu=""
append="" qargs="" mem=512M smp=1 tmo=300 verbose=0 keep=0
while [ $# -gt 0 ]; do
	case "$1" in
	--script|--out|--modules|--module-dirs|--file|--bin|--perfguide|--kernel-package|--append|--qemu-args|--memory|--smp|--timeout|--arch|--cpu)
		[ $# -ge 2 ] || bad "$1 needs a value"
		case "$1" in
		--script) script=$2 ;;
		--out) out=$2 ;;
		--modules) modules="$modules $2" ;;
		--module-dirs) moddirs="$moddirs $2" ;;
		--file) files="$files
$2" ;;
		--bin) bins="$bins $2" ;;
		--perfguide) pg=$2 ;;
		--kernel-package) kmeta=$2 ;;
		--arch) arch=$2 ;;
		--cpu) cpu=$2 ;;
		--append) append="$append $2" ;;
		--qemu-args) qargs="$qargs $2" ;;
		--memory) mem=$2 ;;
		--smp) smp=$2 ;;
		--timeout) tmo=$2 ;;
		esac
		shift 2 ;;
	-v|--verbose) verbose=1; shift ;;
	--keep) keep=1; shift ;;
	-h|--help) usage; exit 0 ;;
	*) bad "unknown argument '$1' (see --help)" ;;
	esac
done
[ -n "$script" ] || bad "--script FILE is required (see --help)"
[ -r "$script" ] || bad "cannot read the guest script '$script'"
case "$tmo" in ''|*[!0-9]*) bad "--timeout takes whole seconds, not '$tmo'" ;; esac
case "$smp" in ''|*[!0-9]*) bad "--smp takes a number, not '$smp'" ;; esac
: "${out:=$PG_VM_BUILD/out}"
# What differs between the guests: qemu and its machine, Debian's
# architecture (for the kernel, busybox and the cross build), the console.
case "$arch" in
x86_64)
	qemu=qemu-system-x86_64 qpkg=qemu-system-x86 debarch=amd64 tty=ttyS0
	kmeta=${kmeta:-linux-image-amd64} ;;
aarch64)
	# A Cortex-A72 (the cores of an RPi 4 or a J721E): the guest's
	# /proc/cpuinfo names a real core, as a board's does.
	qemu=qemu-system-aarch64 qpkg=qemu-system-arm debarch=arm64 tty=ttyAMA0
	kmeta=${kmeta:-linux-image-arm64} cpu=${cpu:-cortex-a72} ;;
*) bad "--arch is x86_64 or aarch64, not '$arch'" ;;
esac
# Package names for apt: a foreign architecture's take its suffix.
foreign=""
[ "$(dpkg --print-architecture 2>/dev/null)" = "$debarch" ] || foreign=":$debarch"

# --- what the host needs: named all at once, in one line ---
missing=""
for t in $qemu:$qpkg cpio:cpio gzip:gzip base64:coreutils \
	tar:tar dpkg-deb:dpkg apt-get:apt; do
	command -v "${t%%:*}" >/dev/null 2>&1 || missing="$missing ${t#*:}"
done
bb=""
for b in /bin/busybox /usr/bin/busybox; do
	[ -x "$b" ] && { bb=$b; break; }
done
[ -n "$bb" ] || missing="$missing busybox-static"
[ -z "$missing" ] || die "cannot build the test VM: missing$missing (install with: sh scripts/deps.sh check-vm)"
# The guest has no C library: a dynamic busybox would not start.
if command -v readelf >/dev/null 2>&1 && readelf -l "$bb" 2>/dev/null | grep -q 'Requesting program interpreter'; then
	die "$bb is dynamically linked: install busybox-static"
fi

mkdir -p "$PG_VM_BUILD"
PG_VM_BUILD=$(cd "$PG_VM_BUILD" && pwd)

# --- the static perfguide ---
if [ -z "$pg" ] && [ "$arch" = x86_64 ]; then
	# SQLite is left out: the guest keeps no results store, and the image
	# stays smaller.
	log=$PG_VM_BUILD/vm-build.log
	if ! { cmake -S "$src" -B "$PG_VM_BUILD" -DCMAKE_BUILD_TYPE=Release -DPG_STATIC=ON \
		-DBUILD_TESTING=OFF -DPG_WITH_SQLITE=OFF && cmake --build "$PG_VM_BUILD" -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		die "the static perfguide did not build (log: $log)"
	fi
	pg=$PG_VM_BUILD/perfguide
elif [ -z "$pg" ]; then
	# The board binary, built as make cross-aarch64 builds it.
	command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 ||
		die "cannot build the aarch64 perfguide: missing gcc-aarch64-linux-gnu (install with: sh scripts/deps.sh check-vm)"
	b=$PG_VM_BUILD/$arch
	log=$PG_VM_BUILD/vm-build-$arch.log
	if ! { cmake -S "$src" -B "$b" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" \
		-DCMAKE_BUILD_TYPE=Release -DPG_STATIC=ON -DPG_STRIP=ON -DBUILD_TESTING=OFF &&
		cmake --build "$b" -j "$(nproc 2>/dev/null || echo 2)"; } >"$log" 2>&1; then
		tail -n 20 "$log" >&2
		die "the static aarch64 perfguide did not build (log: $log)"
	fi
	pg=$b/perfguide
fi
[ -x "$pg" ] || die "no perfguide binary at $pg"
dynamic() { readelf -l "$1" 2>/dev/null | grep -q 'Requesting program interpreter'; }
if [ "$arch" != x86_64 ] && { [ -n "$bins" ] || dynamic "$pg"; }; then
	die "an $arch guest takes a static perfguide only, and no --bin (their libraries would be this machine's)"
fi
# The guest's busybox: this machine's, or the guest architecture's
# busybox-static from Debian (downloaded once, unpacked, never installed).
gbb=$bb
if [ "$arch" != x86_64 ]; then
	gbb=$PG_VM_BUILD/busybox-$debarch/bin/busybox
	if [ ! -x "$gbb" ]; then
		d=$PG_VM_BUILD/busybox-$debarch
		rm -rf "$d" && mkdir -p "$d/dl"
		sandbox=""
		[ "$(id -u)" -eq 0 ] && sandbox="-o APT::Sandbox::User=root"
		# shellcheck disable=SC2086
		(cd "$d/dl" && apt-get download -q $sandbox "busybox-static$foreign") >"$d/download.log" 2>&1 ||
			die "cannot download busybox-static$foreign with apt-get download (no network, or run: dpkg --add-architecture $debarch && apt-get update)"
		dpkg-deb -x "$d"/dl/*.deb "$d" || die "cannot unpack busybox-static$foreign"
		rm -rf "$d/dl"
		[ -x "$gbb" ] || die "busybox-static$foreign holds no bin/busybox"
	fi
fi
if [ -n "$bins" ] || dynamic "$pg"; then
	command -v readelf >/dev/null 2>&1 && command -v ldd >/dev/null 2>&1 ||
		die "shipping a dynamic program needs readelf and ldd (install binutils)"
fi

# --- the kernel: Debian's package, unpacked once into the cache ---
kcache=$PG_VM_BUILD/kernel
mkdir -p "$kcache"
# The meta package depends on the versioned image (linux-image-6.1.0-NN-amd64).
resolve() {
	kpkg=$(apt-cache depends "$kmeta$foreign" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[^ :]*\)\(:[a-z0-9]*\)\{0,1\}$/\1/p' | head -n 1)
	if [ -z "$kpkg" ] && apt-cache show "$kmeta$foreign" >/dev/null 2>&1; then
		kpkg=$kmeta
	fi
}
resolve
# A container often comes without package lists.
if [ -z "$kpkg" ] && [ "$(id -u)" -eq 0 ] && [ ! -f "$kcache/.updated" ]; then
	echo "$me: apt knows no $kmeta: apt-get update" >&2
	apt-get update -qq >/dev/null 2>&1 && : >"$kcache/.updated"
	resolve
fi
if [ -z "$kpkg" ]; then
	# Offline or no package lists: fall back on the newest kernel in the cache.
	kpkg=$(ls -t "$kcache" 2>/dev/null | grep -- "-$debarch\$" | while read -r d; do
		[ -f "$kcache/$d/.ready" ] && { echo "$d"; break; }; done || true)
	[ -n "$kpkg" ] || die "apt knows no package $kmeta and no kernel is cached in $kcache (run apt-get update, or check the network)"
	echo "$me: apt cannot resolve $kmeta; using the cached $kpkg" >&2
fi
kdir=$kcache/$kpkg
if [ ! -f "$kdir/.ready" ]; then
	rm -rf "$kdir"
	mkdir -p "$kdir/dl"
	echo "$me: downloading $kpkg (once; cached in $kdir)" >&2
	sandbox=""
	[ "$(id -u)" -eq 0 ] && sandbox="-o APT::Sandbox::User=root"
	# shellcheck disable=SC2086
	if ! (cd "$kdir/dl" && apt-get download -q $sandbox "$kpkg$foreign") >"$kdir/download.log" 2>&1; then
		tail -n 3 "$kdir/download.log" >&2
		die "cannot download $kpkg with apt-get download (no network or no package lists?)"
	fi
	dpkg-deb -x "$kdir"/dl/*.deb "$kdir/root" || die "cannot unpack $(ls "$kdir"/dl/*.deb)"
	rm -rf "$kdir/dl"
	# Debian moves modules to /usr/lib with merged /usr.
	for b in "$kdir/root" "$kdir/root/usr"; do
		[ -d "$b/lib/modules" ] && { ln -s "$b" "$kdir/base"; break; }
	done
	[ -L "$kdir/base" ] || die "$kpkg holds no lib/modules"
	# Newer kernels ship compressed modules; the guest gets them plain.
	find "$kdir/base/lib/modules" -name '*.ko.xz' -exec xz -d {} + 2>/dev/null || die "cannot decompress .ko.xz (install xz-utils)"
	find "$kdir/base/lib/modules" -name '*.ko.zst' -exec zstd -d -q --rm {} + 2>/dev/null || die "cannot decompress .ko.zst (install zstd)"
	find "$kdir/base/lib/modules" -name '*.ko.gz' -exec gzip -d {} + || die "cannot decompress .ko.gz"
	# The package has no modules.dep (its postinst makes it): make one.
	kver=$(ls "$kdir/base/lib/modules" | head -n 1)
	"$bb" depmod -b "$kdir/base" "$kver" || die "depmod failed on $kpkg"
	vmlinuz=$kdir/root/boot/vmlinuz-$kver
	[ -r "$vmlinuz" ] || die "no kernel image at $vmlinuz"
	# The bzImage unpacks itself, which takes ten seconds under TCG; qemu
	# boots the plain ELF kernel (PVH entry point) at once. Unpack it here,
	# where xz runs at native speed; without it the bzImage boots. (arm64's
	# vmlinuz is an Image qemu boots as it is.)
	[ "$arch" = x86_64 ] && for z in '\xfd7zXZ\x00:xz' '\x28\xb5\x2f\xfd:zstd' '\x1f\x8b\x08\x00:gzip'; do
		for off in $(LC_ALL=C grep -obUaP "${z%%:*}" "$vmlinuz" 2>/dev/null | cut -d: -f1 | head -n 3); do
			tail -c +$((off + 1)) "$vmlinuz" | ${z#*:} -dcq >"$kdir/vmlinux" 2>/dev/null || true
			if readelf -nW "$kdir/vmlinux" 2>/dev/null | grep -Eq 'Xen.*(\(0x00000012\)|PHYS32)'; then
				break 2
			fi
		done
		rm -f "$kdir/vmlinux"
	done
	echo "$kver" >"$kdir/.ready"
fi
kver=$(cat "$kdir/.ready")
mdir=$kdir/base/lib/modules/$kver
kimage=$kdir/root/boot/vmlinuz-$kver
[ -r "$kdir/vmlinux" ] && kimage=$kdir/vmlinux
[ -r "$kimage" ] || die "no kernel image at $kimage"

# --- the initramfs ---
run=$(mktemp -d "$PG_VM_BUILD/run.XXXXXX")
trap '[ $keep -eq 1 ] && echo "$me: kept $run" >&2 || rm -rf "$run"' EXIT
stage=$run/root
mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" "$stage/etc/pg-vm" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/out" "$stage/data" "$stage/root"
cp "$gbb" "$stage/bin/busybox"
# The applet list of the guest's busybox (this machine's, of the same
# Debian version, where the guest's cannot run here).
"$bb" --list-full | while read -r a; do
	[ -e "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
done
cp "$pg" "$stage/bin/perfguide"
cp "$script" "$stage/etc/pg-vm/guest.sh"
# A dynamic program's shared libraries and loader, at the paths ldd
# resolves them to here (the guest's loader searches the same directories).
ship_libs() {
	dynamic "$1" || return 0
	ldd "$1" >"$run/ldd" 2>&1 || die "ldd cannot list the libraries of $1: $(head -n 1 "$run/ldd")"
	! grep -q 'not found' "$run/ldd" || die "$1 needs libraries this machine lacks: $(grep 'not found' "$run/ldd" | tr -d '\t' | tr '\n' ' ')"
	for l in $(sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p' "$run/ldd"); do
		[ -e "$stage$l" ] && continue
		mkdir -p "$stage$(dirname "$l")"
		cp -L "$l" "$stage$l" || die "cannot copy $l"
	done
}
ship_libs "$pg"
for b in $bins; do
	prog=$(command -v "$b" 2>/dev/null) || die "--bin: no program '$b'"
	cp -L "$prog" "$stage/usr/bin/$(basename "$prog")"
	ship_libs "$prog"
done

# Module names: file names use - and _ alike.
norm() { echo "$1" | tr - _; }
# closure NAMES...: the modules.dep paths of NAMES and of everything they
# need, dependencies first (the order insmod wants). A name the kernel has
# built in is left out; one it does not know at all is an error.
closure() {
	awk -v want="$*" -v builtin="$mdir/modules.builtin" '
	function base(p,  b) { b = p; sub(/.*\//, "", b); sub(/\.ko$/, "", b); gsub(/-/, "_", b); return b }
	function visit(p,  i, n, d) {
		if (p in seen) return
		seen[p] = 1
		n = split(deps[p], d, " ")
		for (i = 1; i <= n; i++) visit(d[i])
		print p
	}
	BEGIN { while ((getline l < builtin) > 0) bi[base(l)] = 1 }
	{ p = $1; sub(/:$/, "", p); byname[base(p)] = p; $1 = ""; deps[p] = $0 }
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++) {
			m = w[i]; gsub(/-/, "_", m)
			if (m in byname) visit(byname[m])
			else if (m in bi) print "builtin " m
			else { print "unknown " w[i]; bad = 1 }
		}
		exit bad
	}' "$mdir/modules.dep"
}
load=""
if [ -n "$(echo $modules)" ]; then
	# shellcheck disable=SC2086
	load=$(closure $modules) || die "kernel $kver has no module$(echo "$load" | sed -n 's/^unknown / /p' | tr -d '\n') (see $mdir/modules.dep)"
fi
ship=$(echo "$load" | grep -v '^builtin ' || true)
for d in $moddirs; do
	[ -d "$mdir/kernel/$d" ] || die "kernel $kver has no module directory kernel/$d"
	names=$(find "$mdir/kernel/$d" -name '*.ko' | sed 's|.*/||; s|\.ko$||' | tr '\n' ' ')
	# shellcheck disable=SC2086
	ship="$ship
$(closure $names | grep -v '^builtin ')"
done
smdir=$stage/lib/modules/$kver
mkdir -p "$smdir"
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ -f "$mdir/$f" ] && cp "$mdir/$f" "$smdir/"
done
echo "$ship" | sort -u | while read -r p; do
	[ -n "$p" ] || continue
	mkdir -p "$smdir/$(dirname "$p")"
	cp "$mdir/$p" "$smdir/$p"
done
# modules.dep and modules.alias for the guest's modprobe, which the kernel
# runs itself to load what it asks for (crypto templates, ciphers...).
"$bb" depmod -b "$stage" "$kver" || die "depmod failed on the guest's modules"
echo "$load" | grep -v '^builtin ' | sed '/^$/d' >"$stage/etc/pg-vm/load" || true

echo "$files" | while IFS= read -r f; do
	[ -n "$f" ] || continue
	s=${f%%:*}
	d=/data/$(basename "$s")
	case "$f" in *:*) d=${f#*:} ;; esac
	[ -e "$s" ] || die "--file: no such file '$s'"
	mkdir -p "$stage$(dirname "$d")"
	cp -r "$s" "$stage$d"
done

cat >"$stage/init" <<'EOF'
#!/bin/sh
# pg-vm init: mount, load modules, run the test, send /out back, power off.
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/root TMPDIR=/tmp PG_OUT=/out
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
echo /sbin/modprobe >/proc/sys/kernel/modprobe
kver=$(uname -r)
rc=0
while read -r m; do
	if ! insmod "/lib/modules/$kver/$m"; then
		echo "pg-vm: insmod $m failed"
		rc=125
		break
	fi
done </etc/pg-vm/load
# What udev would load at boot for the devices and the CPU (aesni_intel for
# AES-NI...), among the modules shipped: the drivers a real machine uses.
# busybox modprobe takes no wildcard alias, so match modules.alias here.
# (busybox xargs hung here once: a plain loop.)
for m in $(cat /sys/devices/system/cpu/modalias $(find /sys/devices -name modalias) 2>/dev/null | sort -u |
	awk 'NR == FNR { have[$0]; next }
	$1 == "alias" && $2 ~ /:/ {
		p = $2
		gsub(/[.+(){}|^$]/, "[&]", p); gsub(/[*]/, ".*", p); gsub(/[?]/, ".", p)
		for (m in have) if (m ~ ("^" p "$")) { print $3; break }
	}' - "/lib/modules/$kver/modules.alias" | sort -u); do
	modprobe -q "$m" </dev/null
done
read -r up _ </proc/uptime
echo "pg-vm: up ${up}s, kernel $kver, $(grep -c ^processor /proc/cpuinfo) cpu"
if [ $rc -eq 0 ]; then
	cd /root
	sh /etc/pg-vm/guest.sh </dev/null
	rc=$?
fi
read -r end _ </proc/uptime
echo "pg-vm: guest script exit $rc after ${end}s"
# The results go raw over a second serial port, away from kernel messages;
# a machine with one (arm64's virt) sends them on the console, the kernel's
# messages turned off first.
rtty=$(cat /etc/pg-vm/results-tty)
[ "$rtty" = /dev/console ] && dmesg -n 1
stty -F "$rtty" raw -echo 2>/dev/null
{
	echo PG-VM-RESULTS-BEGIN
	tar -C /out -cf - . | gzip -1 | base64
	echo "PG-VM-RESULTS-END rc=$rc up=$up end=$end"
} >"$rtty"
poweroff -f
EOF
rtty=/dev/ttyS1
[ "$arch" = x86_64 ] || rtty=/dev/console
echo "$rtty" >"$stage/etc/pg-vm/results-tty"
chmod +x "$stage/init" "$stage/etc/pg-vm/guest.sh"
initrd=$run/initrd.gz
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$initrd" || die "cannot write the initramfs"

# --- boot ---
console=$run/console.log
results=$run/results.raw
# The machine: a PC with a second serial port for the results, or arm64's
# virt board (one UART: the results come on the console).
machine="" ports="-serial stdio -serial file:$results"
if [ "$arch" = aarch64 ]; then
	machine="-M virt" ports="-serial stdio" results=$console
fi
# quiet: only the init's and the script's lines on the console, unless -v.
# no_timer_check (x86): a TCG guest on a loaded host runs its timer
# interrupt late, and the kernel's check of the IO-APIC timer then panics
# ("IO-APIC + timer doesn't work!"); the check is for broken hardware, not
# emulation. arm64's architected timer has no such check.
timer=""
[ "$arch" = x86_64 ] && timer=" no_timer_check"
kargs="console=$tty panic=-1 rdinit=/init$timer quiet loglevel=3"
[ $verbose -eq 1 ] && kargs="console=$tty panic=-1 rdinit=/init$timer"
# boot ACCEL...: one run of the guest; qemu's status in $run/qemu.rc.
boot() {
	[ "$results" = "$console" ] || : >"$results"
	# shellcheck disable=SC2086
	{
		timeout -k 10 "$tmo" $qemu $machine "$@" -m "$mem" -smp "$smp" \
			-nodefaults -no-reboot -nographic -monitor none \
			-kernel "$kimage" -initrd "$initrd" -append "$kargs$append" \
			$ports $qargs </dev/null && echo 0 >"$run/qemu.rc" || echo $? >"$run/qemu.rc"
	} 2>&1 | tee "$console" | tr -d '\r' | awk -v all=$verbose '
		# The firmware clears the screen with escape sequences: drop them.
		{ gsub(/\033\[[0-9;?]*[A-Za-z]/, ""); gsub(/\033c/, "") }
		# results sent on the console are not for the eye
		/^PG-VM-RESULTS-BEGIN/ { skip = 1 }
		skip { if ($0 ~ /^PG-VM-RESULTS-END/) skip = 0; next }
		!all && !on { i = index($0, "pg-vm: "); if (i == 0) next; on = 1; $0 = substr($0, i) }
		/reboot: Power down/ { next }
		{ print; fflush() }'
}
accel=${PG_VM_ACCEL:-auto}
case "$accel" in
auto) accel=tcg; [ "$arch" = "$(uname -m)" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] && accel=kvm ;;
kvm|tcg) ;;
*) bad "PG_VM_ACCEL is auto, kvm or tcg, not '$accel'" ;;
esac
echo "$me: booting $kpkg ($kver, $accel), $(du -k "$initrd" | cut -f1) KB initramfs, timeout ${tmo}s" >&2
t0=$(date +%s)
if [ $accel = kvm ]; then
	boot -accel kvm -cpu "${cpu:-host}"
	qrc=$(cat "$run/qemu.rc" 2>/dev/null || echo 1)
	# /dev/kvm can be there while KVM cannot run this guest (nested
	# virtualisation that qemu aborts on): the guest never started, so run
	# it again under TCG rather than fail.
	if [ "$qrc" -ne 0 ] && [ "$qrc" -ne 124 ] && [ "$qrc" -ne 137 ] && ! grep -q 'pg-vm: ' "$console"; then
		why=$(tr -d '\r' <"$console" | grep -v '^$' | tail -n 1 | cut -c1-160)
		echo "$me: KVM could not start the guest (qemu status $qrc: $why); falling back to TCG" >&2
		accel=tcg
		t0=$(date +%s)
	fi
fi
[ $accel = tcg ] && boot -accel tcg -cpu "${cpu:-max}"
qrc=$(cat "$run/qemu.rc" 2>/dev/null || echo 1)
# A guest that died before its init said anything (a kernel panic at boot,
# qemu failing) is booted once more, and the log says so: on a loaded
# host that is the machine's luck, not the test's result.
if [ "$qrc" -ne 124 ] && [ "$qrc" -ne 137 ] && ! grep -q 'pg-vm: ' "$console"; then
	why=$(tr -d '\r' <"$console" | grep -v '^$' | tail -n 1 | cut -c1-160)
	echo "$me: the guest died at boot (qemu status $qrc: $why); booting it once more" >&2
	cp "$console" "$run/console-first-boot.log"
	t0=$(date +%s)
	if [ $accel = kvm ]; then boot -accel kvm -cpu "${cpu:-host}"; else boot -accel tcg -cpu "${cpu:-max}"; fi
	qrc=$(cat "$run/qemu.rc" 2>/dev/null || echo 1)
fi
t1=$(date +%s)
keep() { mkdir -p "$out" && cp "$console" "$out/console.log"; }
if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
	keep
	die "timed out after ${tmo}s: the guest did not power off (console: $out/console.log)"
fi
[ "$qrc" -eq 0 ] || { keep; die "$qemu failed with status $qrc (console: $out/console.log)"; }
endl=$(tr -d '\r' <"$results" | grep '^PG-VM-RESULTS-END' || true)
if [ -z "$endl" ]; then
	keep
	tail -n 15 "$console" | tr -d '\r' >&2
	die "the guest sent no results (kernel panic or the script killed init?; console: $out/console.log)"
fi
# Into --out, over what is there (never emptied: it may be the caller's).
mkdir -p "$out"
tr -d '\r' <"$results" | sed -n '/^PG-VM-RESULTS-BEGIN/,/^PG-VM-RESULTS-END/p' | sed '1d;$d' |
	base64 -d | tar -xzf - -C "$out" || die "the results from the guest are damaged"
cp "$console" "$out/console.log"
grc=$(echo "$endl" | sed -n 's/.* rc=\([0-9]*\).*/\1/p')
up=$(echo "$endl" | sed -n 's/.* up=\([0-9.]*\).*/\1/p')
echo "$me: guest booted in ${up}s (guest clock), qemu ran $((t1 - t0))s; results in $out" >&2
[ "$grc" = 125 ] && die "the guest could not load its modules (console: $out/console.log)"
exit "$grc"
