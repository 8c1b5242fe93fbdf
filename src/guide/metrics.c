/* SPDX-License-Identifier: MIT */
/*
 * report --metrics checked against what the sections have: a metric no
 * row of its section has is refused in one line (it emptied the section:
 * issue 40, defect 8g).
 */
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/text.h"
#include "guide.h"

/* Whether metric is in the comma-separated list. */
static int in_list(const char *list, const char *metric)
{
	size_t n = strlen(metric);
	for (const char *p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, metric, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* Whether a row of section s has metric (n bytes of it). */
static int section_has(const struct pg_guide *g, int s, const char *metric, size_t n)
{
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s); r++)
		if (strlen(g->rows[r].metric) == n && strncmp(g->rows[r].metric, metric, n) == 0)
			return 1;
	return 0;
}

/* The metrics section s has, "a, b", into buf. */
static void section_metric_list(const struct pg_guide *g, int s, char *buf, size_t len)
{
	char seen[300] = "";
	size_t at = 0, sat = 0;
	buf[0] = '\0';
	for (int r = pg_section_first(g, s); r < pg_section_end(g, s) && at + 1 < len && sat + 1 < sizeof(seen); r++) {
		const char *m = g->rows[r].metric;
		if (in_list(seen, m))
			continue;
		sat += (size_t)snprintf(seen + sat, sizeof(seen) - sat, "%s%s", sat ? "," : "", m);
		at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", m);
	}
	pg_utf8_trim(buf);
}

int pg_guide_check_metrics(const struct pg_guide *g, char *err, size_t errlen)
{
	for (int i = 0; i < g->opts.nmetrics; i++) {
		const char *arg = g->opts.metrics[i], *eq = strchr(arg, '=');
		for (int s = 0; eq && s < g->nsections; s++) {
			const char *title = g->sections[s].title;
			if (strlen(title) != (size_t)(eq - arg) || strncmp(arg, title, (size_t)(eq - arg)) != 0)
				continue;
			for (const char *p = eq + 1; *p; p += strcspn(p, ","), p += *p == ',') {
				size_t n = strcspn(p, ",");
				char have[300];
				if (section_has(g, s, p, n))
					continue;
				section_metric_list(g, s, have, sizeof(have));
				return pg_err(err, errlen, "--metrics '%s': no metric '%.*s' in section %s (its metrics: %s)",
					      arg, (int)n, p, title, have);
			}
		}
	}
	return 0;
}
