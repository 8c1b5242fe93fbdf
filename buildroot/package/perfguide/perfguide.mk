################################################################################
#
# perfguide
#
################################################################################

# The commit the release pinned: `make release` sets it (with its tarball's
# hash in perfguide.hash, and the Yocto recipe's PERFGUIDE_RELEASE_REV), and
# make check's style.release fails when it lags behind a hardening fix
# listed in docs/security.md or disagrees with the tree (docs/install.md).
PERFGUIDE_RELEASE_VERSION = 3f30f82d56471309c8919b067a9a5430a5517af6
PERFGUIDE_SITE_METHOD = git
ifneq ($(call qstrip,$(BR2_PACKAGE_PERFGUIDE_CUSTOM_REPO_URL)),)
PERFGUIDE_SITE = $(call qstrip,$(BR2_PACKAGE_PERFGUIDE_CUSTOM_REPO_URL))
PERFGUIDE_VERSION = $(call qstrip,$(BR2_PACKAGE_PERFGUIDE_CUSTOM_REPO_VERSION))
BR_NO_CHECK_HASH_FOR += $(PERFGUIDE_SOURCE)
else
# The repository this BR2_EXTERNAL tree (<perfguide>/buildroot) is in.
PERFGUIDE_SITE = $(BR2_EXTERNAL_PERFGUIDE_PATH)/..
PERFGUIDE_VERSION = $(PERFGUIDE_RELEASE_VERSION)
endif
PERFGUIDE_LICENSE = MIT
PERFGUIDE_LICENSE_FILES = LICENSE
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

# A package copied out of perfguide's repository has no repository to
# default to: it must be told one.
ifeq ($(BR2_PACKAGE_PERFGUIDE)$(BR_BUILDING),yy)
ifeq ($(call qstrip,$(BR2_PACKAGE_PERFGUIDE_CUSTOM_REPO_URL))$(BR2_EXTERNAL_PERFGUIDE_PATH),)
$(error perfguide: set BR2_PACKAGE_PERFGUIDE_CUSTOM_REPO_URL, or use perfguide's buildroot/ directory as a BR2_EXTERNAL tree)
endif
endif

$(eval $(cmake-package))
