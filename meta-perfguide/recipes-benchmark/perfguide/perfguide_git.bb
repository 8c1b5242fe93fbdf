SUMMARY = "Board performance guides: benchmarks, results store and report"
DESCRIPTION = "perfguide measures a Linux machine, above all an embedded board, \
the way board vendors measure it for their performance guides (LMBench, STREAM, \
Dhrystone, netperf- and fio-style tests, openssl speed, RPMsg, CAN, ALSA), records \
every sample with the machine it came from, and writes the guide."
HOMEPAGE = "https://example.org/perfguide"
SECTION = "benchmark"
# The repository states no license yet: CLOSED until its owners choose one
# (then LICENSE and LIC_FILES_CHKSUM name it, as debian/copyright will).
LICENSE = "CLOSED"

SRC_URI = "git://example.org/perfguide.git;protocol=https;branch=main"
# A commit of perfguide's history; a release moves it. To build a local
# checkout instead: INHERIT += "externalsrc" and
# EXTERNALSRC:pn-perfguide = "/path/to/perfguide" in local.conf.
SRCREV = "12e8f44a5bd8311ba2cef579b62bce9ecb6b4f23"
PV = "0.1.0+git"
S = "${WORKDIR}/git"

inherit cmake bash-completion

# Each backend is optional in perfguide; what it enables:
#   json       results files and --json (jansson, meta-oe): every guide needs it
#   sqlite     the results store, import, report, compare (needs json)
#   openssl    the crypto group's openssl backend, serve --psk-file
#   alsa       the audio group
#   aio, uring the storage group's libaio and io_uring engines (fio's)
#   postgresql a shared results store (--db postgresql://): libpq, loaded
#              when such a store is named (meta-oe)
# jansson and liburing are meta-oe's: without that layer the default has
# neither (perfguide then writes no results files: only the console's table).
PACKAGECONFIG ??= "openssl alsa aio \
    ${@bb.utils.contains('BBFILE_COLLECTIONS', 'openembedded-layer', 'json sqlite uring', '', d)}"
PACKAGECONFIG[json] = "-DPG_WITH_JANSSON=ON,-DPG_WITH_JANSSON=OFF,jansson"
PACKAGECONFIG[sqlite] = "-DPG_WITH_SQLITE=ON,-DPG_WITH_SQLITE=OFF,sqlite3"
PACKAGECONFIG[openssl] = "-DPG_WITH_CRYPTO=ON,-DPG_WITH_CRYPTO=OFF,openssl"
PACKAGECONFIG[alsa] = "-DPG_WITH_ALSA=ON,-DPG_WITH_ALSA=OFF,alsa-lib"
PACKAGECONFIG[aio] = "-DPG_WITH_LIBAIO=ON,-DPG_WITH_LIBAIO=OFF,libaio"
PACKAGECONFIG[uring] = "-DPG_WITH_LIBURING=ON,-DPG_WITH_LIBURING=OFF,liburing"
PACKAGECONFIG[postgresql] = "-DPG_WITH_LIBPQ=ON,-DPG_WITH_LIBPQ=OFF,postgresql,libpq"

# No -Werror against a newer compiler; no x86 jump padding decided by the
# build host; no tests. The man pages are written by running the binary,
# which a cross build cannot: 'perfguide help COMMAND' prints the same page.
EXTRA_OECMAKE = "-DBUILD_TESTING=OFF -DPG_WERROR=OFF -DPG_JCC_PAD=OFF -DPG_MAN=OFF"

FILES:${PN} += "${datadir}/perfguide"
