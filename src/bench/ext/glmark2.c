/* SPDX-License-Identifier: MIT */
/*
 * ext.glmark2: the glmark2 OpenGL (ES) 2.0 benchmark, any flavour the
 * user has (glmark2-es2-drm, glmark2-es2-wayland, glmark2-es2 for X11, and
 * their desktop-GL twins), run once per result: its score is already the
 * mean over its scenes, each drawn for its duration. glmark2 prints, for
 * every scene,
 *
 *   [build] use-vbo=true: FPS: 604 FrameTime: 1.658 ms
 *
 * (or "Unsupported", or "Set up failed"), then "glmark2 Score: N": the
 * whole frames per second of the scenes that ran, summed and divided by
 * their number (main-loop.cpp). The printed FPS is rounded up, so the
 * score lies within 2 of the mean of the printed figures: the parser
 * checks that, and everything else it reads (ext.h).
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/runner.h"
#include "ext.h"
#include "core/err.h"

/* A parameter's value is at most 47 characters: 24 one-letter scenes. */
#define GLMARK2_MAX_SPECS 24
#define HELP_TIMEOUT_S 20

/* ---- parsing ---- */

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "FPS: 604 FrameTime: 1.658 ms" */
static int parse_fps(const char *s, struct ext_glmark2_scene *sc)
{
	char *end;
	long fps = strtol(s, &end, 10);
	if (end == s || fps < 0 || !ext_starts(end, " FrameTime: "))
		return -1;
	s = end + strlen(" FrameTime: ");
	double ms = strtod(s, &end);
	if (end == s || ms < 0 || strcmp(end, " ms") != 0)
		return -1;
	sc->fps = (int)fps;
	sc->frame_ms = ms;
	return 0;
}

/* One run's output being read: a function per kind of line (the banner,
 * a scene, the score), each returning 0, or -1 with err set. */
struct glmark2_parse {
	struct ext_glmark2_run *r;
	int have_score;
	long long fps_sum;		/* of the scenes that ran */
	char error_line[160];		/* glmark2's first "Error: " line */
	char *err;
	size_t errlen;
};

static int score_line(struct glmark2_parse *gs, const char *s)
{
	char *end;
	const char *v = skip_spaces(s + strlen("glmark2 Score:"));
	long sc = strtol(v, &end, 10);
	if (end == v || *end || sc < 0) {
		snprintf(gs->err, gs->errlen, "'%.100s' is not 'glmark2 Score: N'", s);
		return -1;
	}
	if (gs->have_score) {
		snprintf(gs->err, gs->errlen, "a second 'glmark2 Score' line");
		return -1;
	}
	gs->r->score = (unsigned)sc;
	gs->have_score = 1;
	return 0;
}

/* The banner: "glmark2 VERSION" (the first such line before any scene),
 * GL_RENDERER and GL_VERSION. 1: s was one of them, 0: it was not, -1. */
static int banner_line(struct glmark2_parse *gs, const char *s)
{
	struct ext_glmark2_run *r = gs->r;
	if (ext_starts(s, "glmark2 ") && !r->version[0] && r->nscenes == 0) {
		const char *v = s + strlen("glmark2 ");
		if (strchr(v, ' ') || strlen(v) >= sizeof(r->version)) {
			snprintf(gs->err, gs->errlen, "'%.100s' is not the banner's 'glmark2 VERSION'", s);
			return -1;
		}
		snprintf(r->version, sizeof(r->version), "%.31s", v);
		return 1;
	}
	if (ext_starts(s, "GL_RENDERER:")) {
		snprintf(r->renderer, sizeof(r->renderer), "%.127s", skip_spaces(s + 12));
		return 1;
	}
	if (ext_starts(s, "GL_VERSION:")) {
		snprintf(r->gl_version, sizeof(r->gl_version), "%.95s", skip_spaces(s + 11));
		return 1;
	}
	return 0;
}

/* How a scene line ends: its figures (status 0), Unsupported (1) or Set up
 * failed (2); *spec_len: the length of "[SCENE] OPTIONS" before it. line is
 * the whole line (n bytes), s the line without its leading spaces. */
static int scene_result(struct glmark2_parse *gs, const char *line, size_t n, const char *s,
			struct ext_glmark2_scene *sc, size_t *spec_len)
{
	const char *res = strstr(s, ": FPS: ");
	if (res) {
		*spec_len = (size_t)(res - s);
		if (parse_fps(res + strlen(": FPS: "), sc) == 0)
			return 0;
		snprintf(gs->err, gs->errlen, "'%.100s' is not '[SCENE] OPTIONS: FPS: N FrameTime: "
			 "T ms'", s);
		return -1;
	}
	if (n > 14 && strcmp(line + n - 13, ": Unsupported") == 0) {
		*spec_len = strlen(s) - 13;
		sc->status = 1;
		return 0;
	}
	if (n > 16 && strcmp(line + n - 15, ": Set up failed") == 0) {
		*spec_len = strlen(s) - 15;
		sc->status = 2;
		return 0;
	}
	snprintf(gs->err, gs->errlen, "'%.100s' is not '[SCENE] OPTIONS: FPS: N FrameTime: T ms' "
		 "(nor Unsupported, nor Set up failed): output cut short or changed", s);
	return -1;
}

/* "[SCENE] OPTIONS: ..." */
static int scene_line(struct glmark2_parse *gs, const char *line, const char *s)
{
	struct ext_glmark2_run *r = gs->r;
	if (gs->have_score) {
		snprintf(gs->err, gs->errlen, "a scene line after the score: '%.100s'", s);
		return -1;
	}
	struct ext_glmark2_scene sc;
	memset(&sc, 0, sizeof(sc));
	size_t spec_len;
	if (scene_result(gs, line, strlen(line), s, &sc, &spec_len) < 0)
		return -1;
	if (!strchr(s, ']') || (size_t)(strchr(s, ']') - s) > spec_len) {
		snprintf(gs->err, gs->errlen, "'%.100s' has no '[SCENE]'", s);
		return -1;
	}
	if (spec_len >= sizeof(sc.spec))
		spec_len = sizeof(sc.spec) - 1;
	memcpy(sc.spec, s, spec_len);
	sc.spec[spec_len] = '\0';
	if (sc.status == 0) {
		gs->fps_sum += sc.fps;
		r->nran++;
	}
	if (r->nscenes < EXT_GLMARK2_MAX_SCENES)
		r->scene[r->nscenes] = sc;
	r->nscenes++;
	return 0;
}

static int parse_line(struct glmark2_parse *gs, const char *line)
{
	const char *s = skip_spaces(line);
	if (ext_starts(s, "Error: ") && !gs->error_line[0])
		snprintf(gs->error_line, sizeof(gs->error_line), "%.159s", s);
	if (ext_starts(s, "glmark2 Score:"))
		return score_line(gs, s);
	int b = banner_line(gs, s);
	if (b != 0)
		return b < 0 ? -1 : 0;
	return s[0] == '[' ? scene_line(gs, line, s) : 0;
}

/* After the last line: the banner, the score, a scene that ran. */
static int parse_end(struct glmark2_parse *gs)
{
	const struct ext_glmark2_run *r = gs->r;
	if (!r->version[0]) {
		if (gs->error_line[0])
			snprintf(gs->err, gs->errlen, "glmark2 said '%s'", gs->error_line);
		else
			snprintf(gs->err, gs->errlen, "no 'glmark2 VERSION' banner line: not glmark2's output");
		return -1;
	}
	if (!r->renderer[0] || !r->gl_version[0]) {
		snprintf(gs->err, gs->errlen, "no '%s' line in the banner",
			 !r->renderer[0] ? "GL_RENDERER: NAME" : "GL_VERSION: VERSION");
		return -1;
	}
	if (!gs->have_score) {
		if (gs->error_line[0])
			snprintf(gs->err, gs->errlen, "no 'glmark2 Score: N' line; glmark2 said '%s'",
				 gs->error_line);
		else
			snprintf(gs->err, gs->errlen, "no 'glmark2 Score: N' line: the output is cut short");
		return -1;
	}
	if (r->nran == 0) {
		snprintf(gs->err, gs->errlen, "none of the %d scenes ran (Unsupported or Set up failed): "
			 "no score", r->nscenes);
		return -1;
	}
	return 0;
}

/* Each scene adds its frames per second rounded down; the line shows them
 * rounded up: the sum shown is 0 to 2 per scene above. */
static int score_check(struct glmark2_parse *gs)
{
	const struct ext_glmark2_run *r = gs->r;
	long long hi = gs->fps_sum / r->nran;
	long long lo = (gs->fps_sum - 2LL * r->nran) / r->nran;
	if ((long long)r->score > hi || (long long)r->score < lo) {
		snprintf(gs->err, gs->errlen, "'glmark2 Score: %u' is not the mean of the %d scenes' FPS "
			 "(%lld to %lld)", r->score, r->nran, lo, hi);
		return -1;
	}
	return 0;
}

int ext_glmark2_parse(const char *text, struct ext_glmark2_run *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	struct glmark2_parse gs = { .r = r, .err = err, .errlen = errlen };
	char line[1024];
	for (const char *p = text; ext_next_line(&p, line, sizeof(line));)
		if (parse_line(&gs, line) < 0)
			return -1;
	return parse_end(&gs) < 0 || score_check(&gs) < 0 ? -1 : 0;
}

/* ---- the benchmark ---- */

struct glmark2_state {
	char bin[4096];
	char *argv[2 * GLMARK2_MAX_SPECS + 10];
	char args[GLMARK2_MAX_SPECS + 4][64];
	int nspecs;		/* scenes asked for by name; 0: glmark2's list */
	double timeout_s;
	int offscreen;
	struct ext_raw raw;
};

/* What the flavour needs to draw, checked before it is run. */
static int display_check(struct pg_ctx *ctx, const char *bin)
{
	const char *base = strrchr(bin, '/');
	base = base ? base + 1 : bin;
	if (!ext_starts(base, "glmark2"))
		return PG_OK;
	if (strstr(base, "-drm")) {
		glob_t g;
		int any = glob("/dev/dri/card*", 0, NULL, &g) == 0;
		if (any)
			globfree(&g);
		if (!any)
			return pg_skip(ctx, "%s draws on a DRM device and there is no /dev/dri/card*: "
				       "load the GPU's display driver, or use another flavour (bin=)", base);
	} else if (strstr(base, "-wayland")) {
		if (!getenv("WAYLAND_DISPLAY"))
			return pg_skip(ctx, "%s needs a Wayland compositor and WAYLAND_DISPLAY is not "
				       "set: run it in the compositor's session (weston)", base);
	} else if (!getenv("DISPLAY")) {
		return pg_skip(ctx, "%s draws on X11 and DISPLAY is not set: run under X, or "
			       "xvfb-run for Mesa's software renderer", base);
	}
	return PG_OK;
}

static int size_ok(const char *s)
{
	char *end;
	long w = strtol(s, &end, 10);
	if (end == s || *end != 'x' || w < 1)
		return 0;
	const char *h = end + 1;
	long hh = strtol(h, &end, 10);
	return end != h && !*end && hh >= 1;
}

/* The size parameter's form: a WIDTHxHEIGHT, not a size in bytes. */
static int size_form(const char *s, char *err, size_t errlen)
{
	return size_ok(s) ? 0 : pg_err(err, errlen, "give WIDTHxHEIGHT, as 800x600");
}

static int glmark2_check(const struct pg_args *a, char *err, size_t errlen)
{
	const char *scenes = pg_arg_str(a, "scenes");
	if (scenes[0] == '@' && !scenes[1])
		return pg_err(err, errlen, "scenes=@: give @FILE, a file of glmark2 benchmark lines");
	return 0;
}

/* Whether this glmark2 can render off-screen: its --help lists it. */
static int has_offscreen(struct glmark2_state *s)
{
	char *argv[] = { s->bin, "--help", NULL };
	struct ext_proc p;
	char err[128];
	if (ext_run(argv, NULL, NULL, 0, HELP_TIMEOUT_S, &p, err, sizeof(err)) < 0)
		return 0;
	int yes = strstr(p.out.s, "--off-screen") || strstr(p.err.s, "--off-screen");
	ext_proc_free(&p);
	return yes;
}

static int glmark2_setup(struct pg_ctx *ctx)
{
	struct glmark2_state *s = calloc(1, sizeof(*s));
	if (!s)
		return pg_error(ctx, "out of memory");
	ctx->priv = s;
	const char *bin = pg_arg_str(ctx->args, "bin");
	if (ext_which(bin, s->bin, sizeof(s->bin)) < 0)
		return pg_skip(ctx, "%s not found%s (Debian's glmark2-es2-drm, glmark2-es2-wayland "
			       "and glmark2-es2-x11 packages hold the flavours; or give bin=PATH)", bin,
			       strchr(bin, '/') ? "" : " on PATH");
	int st = display_check(ctx, s->bin);
	if (st != PG_OK)
		return st;
	s->timeout_s = (double)pg_arg_int(ctx->args, "timeout");
	s->offscreen = pg_arg_int(ctx->args, "offscreen") && has_offscreen(s);

	int n = 0, k = 0;
	s->argv[n++] = s->bin;
	if (s->offscreen)
		s->argv[n++] = "--off-screen";
	s->argv[n++] = "-s";
	snprintf(s->args[k], sizeof(s->args[k]), "%s", pg_arg_str(ctx->args, "size"));
	s->argv[n++] = s->args[k++];
	int64_t duration = pg_arg_int(ctx->args, "duration");
	if (duration > 0) {
		/* A scene with no name sets options for the scenes after it
		 * (glmark2's whole list when none is named). */
		s->argv[n++] = "-b";
		snprintf(s->args[k], sizeof(s->args[k]), ":duration=%lld", (long long)duration);
		s->argv[n++] = s->args[k++];
	}
	const char *scenes = pg_arg_str(ctx->args, "scenes");
	if (scenes[0] == '@') {
		s->argv[n++] = "-f";
		snprintf(s->args[k], sizeof(s->args[k]), "%s", scenes + 1);
		s->argv[n++] = s->args[k++];
	} else if (strcmp(scenes, "default") != 0) {
		for (const char *p = scenes; *p && s->nspecs < GLMARK2_MAX_SPECS;) {
			const char *plus = strchr(p, '+');
			size_t l = plus ? (size_t)(plus - p) : strlen(p);
			if (l == 0 || l >= sizeof(s->args[k]))
				return pg_error(ctx, "scenes=%s: an empty or too long scene", scenes);
			snprintf(s->args[k], sizeof(s->args[k]), "%.*s", (int)l, p);
			s->argv[n++] = "-b";
			s->argv[n++] = s->args[k++];
			if (s->args[k - 1][0] != ':')
				s->nspecs++;
			p = plus ? plus + 1 : p + l;
		}
	}
	s->argv[n] = NULL;
	ext_raw_open(ctx, &s->raw);
	return PG_OK;
}

/* "build:use-vbo=true" for "[build] use-vbo=true", "texture" for
 * "[texture] <default>": the scene as -b names it. */
static void scene_name(const char *spec, char *buf, size_t len)
{
	const char *close = strchr(spec, ']');
	const char *opts = close ? skip_spaces(close + 1) : "";
	int nl = close ? (int)(close - spec - 1) : (int)strlen(spec);
	if (!*opts || strcmp(opts, "<default>") == 0)
		snprintf(buf, len, "%.*s", nl, spec + 1);
	else
		snprintf(buf, len, "%.*s:%s", nl, spec + 1, opts);
}

/* The version, renderer and command, then as many scenes' FPS as fit
 * whole: a figure is never cut (the raw output has them all). */
static void note(struct pg_ctx *ctx, struct glmark2_state *s, const struct ext_glmark2_run *r,
		 const char *base)
{
	char text[PG_MSG_LEN], cmd[160];
	ext_format_argv(s->argv + 1, cmd, sizeof(cmd));
	int o = snprintf(text, sizeof(text), "raw output: %s; glmark2 %s, %s, %s; %s %s; FPS:",
			 s->raw.name, r->version, r->renderer, r->gl_version, base, cmd);
	if (o < 0 || (size_t)o >= sizeof(text)) {
		pg_note(ctx, "%s", text);
		return;
	}
	static const char more[] = " ...";
	for (int i = 0; i < r->nscenes && i < EXT_GLMARK2_MAX_SCENES; i++) {
		const struct ext_glmark2_scene *sc = &r->scene[i];
		char name[sizeof(sc->spec)], item[sizeof(sc->spec) + 32];
		scene_name(sc->spec, name, sizeof(name));
		if (sc->status == 0)
			snprintf(item, sizeof(item), "%s %s %d", i ? "," : "", name, sc->fps);
		else
			snprintf(item, sizeof(item), "%s %s %s", i ? "," : "", name,
				 sc->status == 1 ? "unsupported" : "set-up failed");
		int last = i + 1 == r->nscenes;
		if ((size_t)o + strlen(item) + (last ? 0 : sizeof(more) - 1) >= sizeof(text)) {
			snprintf(text + o, sizeof(text) - (size_t)o, "%s", more);
			break;
		}
		o += snprintf(text + o, sizeof(text) - (size_t)o, "%s", item);
	}
	pg_note(ctx, "%s", text);
}

static int glmark2_step(struct pg_ctx *ctx, uint64_t iters, double *counts)
{
	(void)iters;
	struct glmark2_state *s = ctx->priv;
	struct ext_proc p;
	char err[200], how[128], last[120];
	const char *base = strrchr(s->bin, '/') ? strrchr(s->bin, '/') + 1 : s->bin;
	const int *cpus = ctx->run ? ctx->run->cpus : NULL;
	int ncpus = ctx->run ? ctx->run->ncpus : 0;
	if (ext_run(s->argv, NULL, cpus, ncpus, s->timeout_s, &p, err, sizeof(err)) < 0)
		return pg_error(ctx, "cannot run %s: %s", s->bin, err);
	ext_raw_add(&s->raw, s->argv, &p, s->timeout_s);
	struct ext_glmark2_run *r = calloc(1, sizeof(*r));
	if (!r) {
		ext_proc_free(&p);
		return pg_error(ctx, "out of memory");
	}
	int st = PG_OK;
	int parsed = ext_glmark2_parse(p.out.s, r, err, sizeof(err));
	ext_proc_describe(&p, s->timeout_s, how, sizeof(how));
	ext_last_line(&p, last, sizeof(last));
	if (p.interrupted) {
		st = pg_error(ctx, "interrupted");
	} else if (!p.timed_out && WIFEXITED(p.status) && WEXITSTATUS(p.status) != 0 &&
		   !r->version[0]) {
		/* It gave up before its banner: no display, no GPU access. */
		st = pg_skip(ctx, "%s could not start drawing here (%s: '%s'); raw output: %s", base,
			     how, last, s->raw.name);
	} else if (!ext_proc_ok(&p)) {
		st = pg_error(ctx, "%s %s after %d scenes ('%s'); raw output: %s", base, how,
			      r->nscenes, last, s->raw.name);
	} else if (parsed < 0) {
		st = pg_error(ctx, "%s: %s; raw output: %s", base, err, s->raw.name);
	} else if (s->nspecs && r->nscenes != s->nspecs) {
		st = pg_error(ctx, "%s reported %d scenes, %d were asked for; raw output: %s", base,
			      r->nscenes, s->nspecs, s->raw.name);
	} else {
		counts[0] = r->score;
		note(ctx, s, r, base);
	}
	free(r);
	ext_proc_free(&p);
	return st;
}

static void glmark2_teardown(struct pg_ctx *ctx)
{
	struct glmark2_state *s = ctx->priv;
	if (!s)
		return;
	ext_raw_close(&s->raw);
	free(s);
}

/* The seed guide's rows: one per window system, glmark2's own scenes;
 * the desktop-OpenGL flavours say so. */
static void glmark2_label(const struct pg_bench *b, const struct pg_args *args,
			  const char *metric, char *buf, size_t len)
{
	(void)b;
	(void)metric;
	buf[0] = '\0';
	const char *bin = pg_arg_str(args, "bin");
	const char *base = strrchr(bin, '/') ? strrchr(bin, '/') + 1 : bin;
	if (strcmp(pg_arg_str(args, "scenes"), "default") != 0 || !ext_starts(base, "glmark2"))
		return;
	/* The seed's boards have OpenGL ES only: its names are the es2 ones'. */
	snprintf(buf, len, "%s%s", strstr(base, "-drm") ? "Glmark2-DRM"
				   : strstr(base, "-wayland") ? "Glmark2-Wayland" : "Glmark2-X11",
		 strstr(base, "-es2") ? "" : " (OpenGL)");
}

static const struct pg_section section = {
	.title = "Graphics",
	.intro = "glmark2's score, the mean of its scenes' frames per second, for each window "
		 "system its flavours draw on (DRM/KMS, Wayland, X11). Scenes: {scenes} (default: "
		 "glmark2's own list, its published score's). A {size} surface, drawn "
		 "{offscreen?off-screen|on screen}.",
	.order = 140,
	.rows_by = "bin", .rows_title = "glmark2 flavour",
};

static const struct pg_param params[] = {
	{ .name = "bin", .type = PG_P_STR, .def = "glmark2-es2-drm,glmark2-es2-wayland,glmark2-es2",
	  .help = "the glmark2 flavour: a name on PATH or a path" },
	/* Whole: a scene's options hold commas (effect2d:kernel=0,1,0;1,-4,1;0,1,0),
	 * never a '+', so '+' joins scenes and a comma is not a sweep here. */
	{ .name = "scenes", .type = PG_P_STR, .def = "default", .whole = 1,
	  .help = "default: glmark2's own list; or benchmarks joined with '+' "
		  "(build:use-vbo=true+texture; commas stay in a scene's options), or @FILE "
		  "of them, one a line" },
	{ .name = "duration", .type = PG_P_INT, .def = "0", .min = 0, .max = 3600,
	  .help = "seconds each scene draws; 0: glmark2's own (10)" },
	{ .name = "size", .type = PG_P_STR, .def = "800x600", .form = size_form,
	  .help = "the surface, WIDTHxHEIGHT (glmark2's default 800x600)" },
	{ .name = "offscreen", .type = PG_P_INT, .def = "1", .min = 0, .max = 1,
	  .help = "1: --off-screen, where the flavour has it (no display refresh to wait for)" },
	{ .name = "timeout", .type = PG_P_INT, .def = "1800", .min = 1, .max = 86400,
	  .help = "seconds glmark2 may run before it is killed" },
	{ 0 },
};

static const struct pg_metric metrics[] = {
	{ "score", "score", PG_VALUE, 1, 1, 0 },
	{ 0 },
};

const struct pg_bench pg_ext_glmark2 = {
	.id = "ext.glmark2",
	.title = "glmark2 score",
	.section = &section, .params = params, .metrics = metrics,
	.once = 1, .min_suite = PG_IN_STANDARD,
	.check = glmark2_check, .setup = glmark2_setup, .step = glmark2_step,
	.teardown = glmark2_teardown, .label = glmark2_label,
};
