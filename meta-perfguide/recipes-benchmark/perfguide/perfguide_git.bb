# SPDX-License-Identifier: MIT
SUMMARY = "Board performance guides: benchmarks, results store and report"
DESCRIPTION = "perfguide measures a Linux machine, above all an embedded board, \
the way board vendors measure it for their performance guides (LMBench, STREAM, \
Dhrystone, netperf- and fio-style tests, openssl speed, RPMsg, CAN, ALSA), records \
every sample with the machine it came from, and writes the guide."
SECTION = "benchmark"
LICENSE = "MIT"
LIC_FILES_CHKSUM = "file://LICENSE;md5=9706a535028071c7a315b0c3840f0522"

# What is built (docs/install.md):
#   PERFGUIDE_GIT_URL  a git URL with BitBake's parameters (protocol, branch
#                      or nobranch=1); default: the perfguide repository this
#                      layer is in, read locally (no network)
#   PERFGUIDE_GIT_REV  the commit; default: the one the release pinned
# Set them in local.conf (PERFGUIDE_GIT_URL = "git://host/perfguide.git;
# protocol=https;branch=main"), or build a tree as it is: INHERIT +=
# "externalsrc" and EXTERNALSRC:pn-perfguide = "/path/to/perfguide".
# `make release` sets PERFGUIDE_RELEASE_REV and PV, and make check's
# style.release fails when they lag behind a hardening fix listed in
# docs/security.md or disagree with the tree.
PERFGUIDE_RELEASE_REV = "3f30f82d56471309c8919b067a9a5430a5517af6"
PV = "0.1.0+git"
PERFGUIDE_GIT_URL ??= "git://${@os.path.dirname(d.getVar('PERFGUIDE_LAYERDIR') or '/perfguide-layer-not-added')};protocol=file;nobranch=1"
PERFGUIDE_GIT_REV ??= "${PERFGUIDE_RELEASE_REV}"
SRC_URI = "${PERFGUIDE_GIT_URL}"
SRCREV = "${PERFGUIDE_GIT_REV}"
S = "${WORKDIR}/git"

inherit cmake bash-completion

# jansson (results files, --json) is always built in: every guide needs
# it (layer.conf makes meta-oe, which has it, a dependency). The other
# backends are optional in perfguide; what each enables:
#   sqlite     the results store, import, report, compare
#   openssl    the crypto group's openssl backend, serve --psk-file
#   alsa       the audio group
#   aio, uring the storage group's libaio and io_uring engines (fio's)
#   postgresql a shared results store (--db postgresql://): libpq, loaded
#              when such a store is named (meta-oe)
DEPENDS += "jansson"
PACKAGECONFIG ??= "sqlite openssl alsa aio uring"
PACKAGECONFIG[sqlite] = "-DPG_WITH_SQLITE=ON,-DPG_WITH_SQLITE=OFF,sqlite3"
PACKAGECONFIG[openssl] = "-DPG_WITH_CRYPTO=ON,-DPG_WITH_CRYPTO=OFF,openssl"
PACKAGECONFIG[alsa] = "-DPG_WITH_ALSA=ON,-DPG_WITH_ALSA=OFF,alsa-lib"
PACKAGECONFIG[aio] = "-DPG_WITH_LIBAIO=ON,-DPG_WITH_LIBAIO=OFF,libaio"
PACKAGECONFIG[uring] = "-DPG_WITH_LIBURING=ON,-DPG_WITH_LIBURING=OFF,liburing"
PACKAGECONFIG[postgresql] = "-DPG_WITH_LIBPQ=ON,-DPG_WITH_LIBPQ=OFF,postgresql,libpq"

# No -Werror against a newer compiler; no x86 jump padding decided by the
# build host; no tests. The man pages are written by running the binary,
# which a cross build cannot: 'perfguide help COMMAND' prints the same page.
EXTRA_OECMAKE = "-DBUILD_TESTING=OFF -DPG_WERROR=OFF -DPG_JCC_PAD=OFF -DPG_MAN=OFF -DPG_WITH_JANSSON=ON"

FILES:${PN} += "${datadir}/perfguide"
