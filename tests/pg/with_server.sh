#!/bin/sh
# SPDX-License-Identifier: MIT
# with_server.sh PROGRAM ARGS...: runs PROGRAM with a throwaway PostgreSQL
# server, its socket directory in PERFGUIDE_TEST_PG_HOST (user perfguide,
# trust); exit 77 (skipped) when there is none to start.
. "$(dirname "$0")/server.sh"
trap pg_server_stop EXIT
if ! pg_server_start; then
	echo "SKIP: $PG_SERVER_WHY" >&2
	exit 77
fi
PERFGUIDE_TEST_PG_HOST=$PG_SERVER_DIR "$@"
