################################################################################
#
# perfguide
#
################################################################################

# A commit of perfguide's history; a release moves it (and perfguide.hash).
# To build a local checkout instead: PERFGUIDE_OVERRIDE_SRCDIR in local.mk.
PERFGUIDE_VERSION = 12e8f44a5bd8311ba2cef579b62bce9ecb6b4f23
PERFGUIDE_SITE = https://example.org/perfguide.git
PERFGUIDE_SITE_METHOD = git
# The repository states no license yet; its owners choose one, and
# PERFGUIDE_LICENSE and PERFGUIDE_LICENSE_FILES then name it.
PERFGUIDE_DEPENDENCIES = jansson
# No -Werror against another compiler, no x86 jump padding decided by the
# build host, no tests; the man pages need the target binary to run
# (perfguide help COMMAND prints the same page on the board).
PERFGUIDE_CONF_OPTS = \
	-DBUILD_TESTING=OFF \
	-DPG_WERROR=OFF \
	-DPG_JCC_PAD=OFF \
	-DPG_MAN=OFF \
	-DPG_WITH_JANSSON=ON

ifeq ($(BR2_PACKAGE_OPENSSL),y)
PERFGUIDE_DEPENDENCIES += openssl
PERFGUIDE_CONF_OPTS += -DPG_WITH_CRYPTO=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_CRYPTO=OFF
endif

ifeq ($(BR2_PACKAGE_SQLITE),y)
PERFGUIDE_DEPENDENCIES += sqlite
PERFGUIDE_CONF_OPTS += -DPG_WITH_SQLITE=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_SQLITE=OFF
endif

ifeq ($(BR2_PACKAGE_ALSA_LIB),y)
PERFGUIDE_DEPENDENCIES += alsa-lib
PERFGUIDE_CONF_OPTS += -DPG_WITH_ALSA=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_ALSA=OFF
endif

ifeq ($(BR2_PACKAGE_LIBAIO),y)
PERFGUIDE_DEPENDENCIES += libaio
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBAIO=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBAIO=OFF
endif

ifeq ($(BR2_PACKAGE_LIBURING),y)
PERFGUIDE_DEPENDENCIES += liburing
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBURING=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBURING=OFF
endif

ifeq ($(BR2_PACKAGE_POSTGRESQL),y)
PERFGUIDE_DEPENDENCIES += postgresql
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBPQ=ON
else
PERFGUIDE_CONF_OPTS += -DPG_WITH_LIBPQ=OFF
endif

$(eval $(cmake-package))
