# SPDX-License-Identifier: MIT
# The two commands the README leads with, and the cross builds. CMake does
# the building; this file only chains the steps.

BUILD       ?= build
CHECK_BUILD ?= build-check
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
RUN_ARGS    ?= --suite quick

.PHONY: all run check check-vm check-fresh build cross-aarch64 cross-armhf fuzz release clean

all: build

build:
	@sh scripts/deps.sh build
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
	cmake --build $(BUILD) -j $(JOBS)

# Builds an optimised binary, runs the quick suite on this machine and writes
# the results file, then guide.html and guide.md beside it whenever anything
# was measured, even when a benchmark failed (scripts/make-run.sh).
run: build
	@sh scripts/make-run.sh ./$(BUILD)/perfguide $(RUN_ARGS)

# A -Werror build with AddressSanitizer and UndefinedBehaviorSanitizer, then
# every test through ctest, among them the memcheck pass: an optimised build
# without sanitizers ($(CHECK_BUILD)/memcheck), its unit tests and a set of
# end-to-end commands under valgrind (scripts/memcheck-test.sh), for what
# the sanitizers cannot see (reads of uninitialised memory). Most tests wait
# more than they compute (shaped links, runs of a set length), so ctest runs
# twice as many at once as there are CPUs.
CTEST_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))
check:
	@sh scripts/deps.sh check $(CHECK_BUILD)/deps-missing
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DPG_SANITIZE=ON -DBUILD_TESTING=ON
	cmake --build $(CHECK_BUILD) -j $(JOBS)
	@(ctest --test-dir $(CHECK_BUILD) --output-on-failure -j $(CTEST_JOBS); echo $$? >$(CHECK_BUILD)/ctest.rc) | tee $(CHECK_BUILD)/ctest.log
	@sh scripts/ctest-skipped.sh $(CHECK_BUILD)
	@cat $(CHECK_BUILD)/memcheck.log 2>/dev/null || true
	@exit $$(cat $(CHECK_BUILD)/ctest.rc)

# The tests that need kernel drivers this machine's kernel lacks (AF_ALG for
# the crypto group's kernel backend), each in a qemu virtual machine booting
# Debian's kernel with a static perfguide: tests/vm/, docs/testing-vm.md.
check-vm:
	@sh scripts/deps.sh check-vm
	sh tests/vm/check-vm.sh $(VM_TESTS)

# The two commands above as a newcomer meets them: a fresh Debian 12 root
# (debootstrap, cached), a clean clone of the committed HEAD, `make run` and
# `make check` in it as root; prints both exit codes and times.
check-fresh:
	sh scripts/check-fresh.sh

# Static, stripped binaries for boards: build-aarch64/perfguide,
# build-armhf/perfguide, with every library Debian ships a static archive of
# (OpenSSL's libcrypto, SQLite, jansson, libaio, liburing: deps.sh installs
# the target's multiarch -dev packages). The last lines say the size and
# the backends the binary has; alsa-lib has no static archive in Debian, so
# the audio group is in the dynamic builds (docs/install.md).
cross-aarch64:
	@sh scripts/deps.sh cross-aarch64
	cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
		-DCMAKE_BUILD_TYPE=Release -DPG_STATIC=ON -DPG_STRIP=ON -DBUILD_TESTING=OFF
	cmake --build build-aarch64 -j $(JOBS)
	@sh scripts/cross-summary.sh build-aarch64/perfguide qemu-aarch64

cross-armhf:
	@sh scripts/deps.sh cross-armhf
	cmake -S . -B build-armhf -DCMAKE_TOOLCHAIN_FILE=cmake/arm-linux-gnueabihf.cmake \
		-DCMAKE_BUILD_TYPE=Release -DPG_STATIC=ON -DPG_STRIP=ON -DBUILD_TESTING=OFF
	cmake --build build-armhf -j $(JOBS)
	@sh scripts/cross-summary.sh build-armhf/perfguide qemu-arm

# libFuzzer, for FUZZ_TIME seconds each (clang): the network peer's
# control-message parser, then everything done with a results file (read,
# imported into a store, the guide in every format, compare: fuzz/results.c),
# then a store perfguide did not write (an SQLite file opened, listed,
# reported, added to: fuzz/store.c), then a LAVA job log's results files
# taken out (fuzz/lava_log.c), then a published table read as import
# --table reads it (fuzz/table.c). FUZZ_TARGETS picks some of them; the
# targets keep their files in $TMPDIR.
# New inputs go to build-fuzz/corpus/; the committed seeds in fuzz/corpus/
# are replayed by `make check`.
FUZZ_TIME ?= 60
FUZZ_TARGETS ?= net_frame results store lava_log table
fuzz:
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DPG_FUZZ=ON -DBUILD_TESTING=OFF
	cmake --build build-fuzz --target $(addprefix fuzz_,$(FUZZ_TARGETS)) -j $(JOBS)
	mkdir -p $(addprefix build-fuzz/corpus/,$(FUZZ_TARGETS))
	case " $(FUZZ_TARGETS) " in *" net_frame "*) \
	./build-fuzz/fuzz/fuzz_net_frame -max_total_time=$(FUZZ_TIME) -max_len=8192 build-fuzz/corpus/net_frame fuzz/corpus/net_frame ;; esac
	case " $(FUZZ_TARGETS) " in *" results "*) \
	./build-fuzz/fuzz/fuzz_results -max_total_time=$(FUZZ_TIME) -max_len=16384 -timeout=10 \
		-dict=fuzz/results.dict build-fuzz/corpus/results fuzz/corpus/results ;; esac
	case " $(FUZZ_TARGETS) " in *" store "*) \
	./build-fuzz/fuzz/fuzz_store -max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=10 \
		build-fuzz/corpus/store fuzz/corpus/store ;; esac
	case " $(FUZZ_TARGETS) " in *" lava_log "*) \
	./build-fuzz/fuzz/fuzz_lava_log -max_total_time=$(FUZZ_TIME) -max_len=8192 build-fuzz/corpus/lava_log fuzz/corpus/lava_log ;; esac
	case " $(FUZZ_TARGETS) " in *" table "*) \
	./build-fuzz/fuzz/fuzz_table -max_total_time=$(FUZZ_TIME) -max_len=16384 -timeout=10 build-fuzz/corpus/table fuzz/corpus/table ;; esac

# A release: VERSION and debian/changelog (when VERSION= names a new one),
# then the Yocto recipe and the Buildroot package pinned to that commit with
# their hashes (Buildroot's own git download makes the tarball: BUILDROOT
# is a Buildroot checkout), in commits of their own (scripts/release.sh).
# Also after merging a hardening round (docs/security.md).
release:
	@[ -n "$(BUILDROOT)" ] || { echo "make release: BUILDROOT=<a Buildroot checkout> [VERSION=X.Y.Z]" >&2; exit 2; }
	sh scripts/release.sh $(BUILDROOT) $(VERSION)

clean:
	rm -rf $(BUILD) $(CHECK_BUILD) build-aarch64 build-armhf build-fuzz
