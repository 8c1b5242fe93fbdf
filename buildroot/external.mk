# SPDX-License-Identifier: MIT
# perfguide's repository as a BR2_EXTERNAL tree: make BR2_EXTERNAL=<perfguide>/buildroot
include $(sort $(wildcard $(BR2_EXTERNAL_PERFGUIDE_PATH)/package/*/*.mk))
