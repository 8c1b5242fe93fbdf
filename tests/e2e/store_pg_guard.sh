#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 40, defect 1: a PostgreSQL store runs none of its own SQL, as an
# SQLite store does not (tests/e2e/hardening3.sh, 8). A role that owns the
# store's tables planted a trigger on runs; an administrator's import ran it
# as the superuser (a shell command on the server through COPY ... TO
# PROGRAM, every run deleted) while import said "imported". A view named
# runs with an endless query hung `runs`. Each check below failed before
# the fix; the store is refused in one line, exit 2, by every command, and
# nothing of it runs. On a throwaway server (tests/pg/server.sh).
. "$(dirname "$0")/lib.sh"
[ "${PG_HAVE_STORE:-ON}" = ON ] || skip "built without the results store"
. "$PG_SOURCE_DIR/tests/pg/server.sh"
trap 'pg_server_stop; rm -rf "$T"' EXIT
pg_server_start || skip "$PG_SERVER_WHY"
F="$PG_SOURCE_DIR/tests/fixtures"
set +e
"$PG" runs --db "postgresql:///nodb?host=$PG_SERVER_DIR&user=perfguide" >"$T/out" 2>"$T/err"
set -e
grep -q 'without libpq' "$T/err" && skip "built without libpq: $(cat "$T/err")"

# A store with one run, made anew for each case: NAME is its database.
store() {
	U=$(pg_newdb "$1")
	"$PG" import --db "$U" "$F/seed-j7200-evm.jsonl" >/dev/null || fail "$1: the first import failed"
}
nruns() { pg_psql "$1" -At -c "SELECT count(*) FROM public.runs"; }
# refused CASE WHAT: every command refuses the store, one line, exit 2,
# saying WHAT; the store keeps its one run.
refused() {
	for cmd in runs report import; do
		set +e
		timeout 60 "$PG" $cmd --db "$U" $([ $cmd = import ] && echo "$F/seed-j721e-idk-gw.jsonl") >"$T/out" 2>"$T/err"
		rc=$?
		set -e
		[ $rc -eq 2 ] || fail "$1: $cmd: exit $rc, expected 2 (124: it hung): $(head -c 400 "$T/err")"
		[ "$(wc -l <"$T/err")" -eq 1 ] || fail "$1: $cmd: not one line: $(cat "$T/err")"
		grep -q "not a store as perfguide makes them: .*$2" "$T/err" || fail "$1: $cmd: $(cat "$T/err")"
	done
	[ "$(nruns "$1")" = 1 ] || fail "$1: the store's runs changed: $(nruns "$1") runs"
}

# The trigger of the report: a shell command on the server, the runs gone.
store trig
pg_psql trig -c "CREATE FUNCTION public.evil() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN
	EXECUTE 'COPY (SELECT 1) TO PROGRAM ''touch $PG_SERVER_DIR/pwned''';
	DELETE FROM public.results; DELETE FROM public.runs; RETURN NULL; END \$\$;
	CREATE TRIGGER t AFTER INSERT ON public.runs FOR EACH STATEMENT EXECUTE FUNCTION public.evil()"
refused trig "a function, evil, that perfguide never makes"
[ ! -e "$PG_SERVER_DIR/pwned" ] || fail "trig: the trigger ran a program on the server"
# the function elsewhere: the trigger alone is refused
pg_psql trig -c "CREATE SCHEMA elsewhere; ALTER FUNCTION public.evil() SET SCHEMA elsewhere"
refused trig "a trigger, t, that perfguide never makes"
[ ! -e "$PG_SERVER_DIR/pwned" ] || fail "trig: the trigger ran a program on the server"

# A view in place of runs, an endless recursive query: refused at once, and
# the server runs nothing of it afterwards.
store view
pg_psql view -c "ALTER TABLE public.runs RENAME TO runs_old;
	CREATE VIEW public.runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
	SELECT 'r' || x AS id, 'b' AS board, NULL::text AS started, NULL::text AS finished, NULL::text AS status,
	NULL::text AS version, NULL::bigint AS machine_id, NULL::text AS build, NULL::text AS config, NULL::text AS source,
	NULL::timestamptz AS added, NULL::text AS sections, NULL::text AS labels FROM c"
set +e
timeout 60 "$PG" runs --db "$U" >"$T/out" 2>"$T/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "view: runs: exit $rc (124: it hung) $(cat "$T/err")"
grep -q 'the store holds a view, runs, that perfguide never makes' "$T/err" || fail "view: $(cat "$T/err")"
sleep 1
busy=$(pg_psql view -At -c "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%FROM runs%' AND state = 'active' AND pid <> pg_backend_pid()")
[ "$busy" = 0 ] || fail "view: the server still runs perfguide's query"

# A rule, a row security policy, a column default that calls a function,
# an index on an expression, a table of another's, a check constraint, a
# column of a domain type, an event trigger: each is code the server runs
# on perfguide's statements, or a relation perfguide did not create.
store others
pg_psql others -c "CREATE SCHEMA x; CREATE TABLE x.log(v text);
	CREATE FUNCTION x.f(text) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT \$1';
	CREATE RULE r AS ON INSERT TO public.results DO ALSO INSERT INTO x.log VALUES ('rule')"
refused others "a rule, r, that perfguide never makes"
pg_psql others -c "DROP RULE r ON public.results; CREATE POLICY p ON public.runs USING (x.f(board) IS NOT NULL)"
refused others "a row security policy, p"
pg_psql others -c "DROP POLICY p ON public.runs; ALTER TABLE public.runs ENABLE ROW LEVEL SECURITY"
refused others "row level security on, runs"
pg_psql others -c "ALTER TABLE public.runs DISABLE ROW LEVEL SECURITY; ALTER TABLE public.runs ALTER COLUMN source SET DEFAULT x.f('d')"
refused others "column runs.source has a default perfguide did not give it"
pg_psql others -c "ALTER TABLE public.runs ALTER COLUMN source DROP DEFAULT; CREATE INDEX runs_f ON public.runs (x.f(board))"
refused others "an index, runs_f, that perfguide did not make"
pg_psql others -c "DROP INDEX public.runs_f; DROP INDEX public.runs_board; CREATE INDEX runs_board ON public.runs (x.f(board))"
refused others "index runs_board is not the one perfguide made"
pg_psql others -c "DROP INDEX public.runs_board; CREATE INDEX runs_board ON public.runs (board, started);
	ALTER TABLE public.runs ADD CONSTRAINT c CHECK (x.f(board) IS NOT NULL)"
refused others "a constraint, c, that perfguide did not make"
pg_psql others -c "ALTER TABLE public.runs DROP CONSTRAINT c; CREATE TABLE public.notes(v text)"
refused others "a table, notes, that perfguide did not make"
pg_psql others -c "DROP TABLE public.notes; CREATE DOMAIN x.d AS text CHECK (x.f(VALUE) IS NOT NULL);
	ALTER TABLE public.runs ALTER COLUMN source TYPE x.d"
refused others "column runs.source is of a type perfguide never uses"
pg_psql others -c "ALTER TABLE public.runs ALTER COLUMN source TYPE text;
	CREATE FUNCTION x.ev() RETURNS event_trigger LANGUAGE plpgsql AS \$\$ BEGIN INSERT INTO x.log VALUES ('ddl'); END \$\$;
	CREATE EVENT TRIGGER ev ON ddl_command_start EXECUTE FUNCTION x.ev()"
refused others "an event trigger, ev"
pg_psql others -c "DROP EVENT TRIGGER ev; CREATE TABLE x.child() INHERITS (public.runs)"
refused others "an inherited table"
pg_psql others -c "DROP TABLE x.child"
"$PG" runs --db "$U" >/dev/null 2>"$T/err" || fail "others: the store as perfguide made it again: $(cat "$T/err")"
[ "$(pg_psql others -At -c "SELECT count(*) FROM x.log")" = 0 ] || fail "others: the store's code ran"

# search_path is pinned: a function of another schema the database's path
# puts first does not stand in for the server's own (md5 of the machine).
store path
pg_psql path -c "CREATE SCHEMA x; CREATE TABLE x.log(v text);
	CREATE FUNCTION x.md5(text) RETURNS text LANGUAGE plpgsql AS \$\$ BEGIN INSERT INTO x.log VALUES (\$1);
	RETURN pg_catalog.md5(\$1); END \$\$; ALTER DATABASE path SET search_path = public, x, pg_catalog"
"$PG" import --db "$U" "$F/seed-j721e-idk-gw.jsonl" >"$T/out" 2>&1 || fail "path: import: $(cat "$T/out")"
[ "$(nruns path)" = 2 ] || fail "path: the run was not added"
[ "$(pg_psql path -At -c "SELECT count(*) FROM x.log")" = 0 ] || fail "path: another schema's md5 ran"

# An empty database whose schema holds a function is not made a store.
U=$(pg_newdb fn)
pg_psql fn -c "CREATE FUNCTION public.g() RETURNS int LANGUAGE sql AS 'SELECT 1'"
expect_usage_error "fn: import into a schema with a function" import --db "$U" "$F/seed-j7200-evm.jsonl"
grep -q 'holds a function, g, that perfguide never makes' "$T/err" || fail "fn: $(cat "$T/err")"
[ "$(pg_psql fn -At -c "SELECT count(*) FROM pg_class WHERE relname = 'runs'")" = 0 ] || fail "fn: tables were made"

# A schema version that is no integer is said as it is (defect 8m).
store ver
pg_psql ver -c "ALTER TABLE public.perfguide_schema ALTER COLUMN version TYPE text; UPDATE public.perfguide_schema SET version = '4x'"
expect_usage_error "ver: a text version" runs --db "$U"
grep -q "store schema version '4x' is not an integer" "$T/err" || fail "ver: $(cat "$T/err")"
echo ok
