/* SPDX-License-Identifier: MIT */
/*
 * libpq, looked up when a PostgreSQL store is first opened instead of
 * linked. Linked, libpq brings some twenty libraries (TLS, Kerberos, LDAP,
 * SASL) into every perfguide process, whatever it does, and what fork and
 * exit cost grows with a process's mappings: os.proc.fork read 4.3 times
 * lat_proc's figure with them, 1.5 times without (docs/methodology-os.md).
 * Calls go through the table: pg_pq.PQexec(...).
 */
#ifndef PG_PQ_DL_H
#define PG_PQ_DL_H

#include <stddef.h>
#include <libpq-fe.h>

#ifdef LIBPQ_HAS_PIPELINING
#define PG_PQ_PIPELINE(X) X(PQenterPipelineMode) X(PQexitPipelineMode) X(PQpipelineSync) \
	X(PQsendQueryPrepared)
#else
#define PG_PQ_PIPELINE(X)
#endif
#define PG_PQ_FUNCS(X)                                                                        \
	X(PQclear) X(PQconnectdb) X(PQdb) X(PQerrorMessage) X(PQexec) X(PQexecParams)         \
	X(PQexecPrepared) X(PQfinish) X(PQgetResult) X(PQgetisnull) X(PQgetvalue) X(PQhost)   \
	X(PQntuples) X(PQport) X(PQprepare) X(PQresultErrorField) X(PQresultStatus)           \
	X(PQsetNoticeProcessor) X(PQstatus) X(PQuser) PG_PQ_PIPELINE(X)

struct pg_pq {
#define PG_PQ_MEMBER(f) __typeof__(f) *f;
	PG_PQ_FUNCS(PG_PQ_MEMBER)
#undef PG_PQ_MEMBER
};

extern struct pg_pq pg_pq;

/* 0 once libpq is loaded (the first call loads it); -1 and why in err. */
int pg_pq_load(char *err, size_t errlen);

#endif
