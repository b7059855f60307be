// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The decide protocol (doc/governors.md section 4): drive one governor on one
 * CPU, one call at a time, from a stream of decision steps.  Plays the
 * cpuidle core's part around the governor exactly as cpuidle-core.h
 * describes it, and answers "IDX STOP_TICK" for every select.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <idlelab/governor.h>

#include "cpuidle-core.h"
#include "decide.h"
#include "error.h"
#include "explain.h"
#include "plugin.h"

#define DEFAULT_HZ		250
#define DEFAULT_LATENCY_REQ	2000000000000LL	/* no QoS constraint */
#define MAX_FIELDS		8
#define INBUF_SIZE		(1 << 16)

/* Where the stream is in the idle loop. */
enum step {
	STEP_START,		/* no select yet */
	STEP_SELECTED,		/* select done, waiting for reflect or busy */
	STEP_REFLECTED,
	STEP_BUSY,
};

struct decide {
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	struct idl_env		env;
	struct idl_governor	gov;
	struct idl_explain	ex;
	bool			explain;
	bool			attached;
	unsigned int		hz;
	s64			latency_req;
	enum step		step;
	int			selected;	/* the last select's index */
	unsigned long		line;
	FILE			*out;		/* the answers */
};

/* Buffered line reader on a file descriptor: flushes the answers before it
 * blocks, so a process driving decide step by step sees every answer. */
struct reader {
	int	fd;
	char	buf[INBUF_SIZE];
	size_t	start, end;
	bool	eof;
};

static int __attribute__((format(printf, 2, 3)))
bad(struct decide *d, const char *fmt, ...)
{
	va_list ap;

	fflush(d->out);
	fprintf(stderr, "decide: line %lu: ", d->line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

/* A NUL inside a line would silently cut it short: refuse it. */
static int check_nul(struct decide *d, const char *line, const char *end)
{
	if (!memchr(line, '\0', (size_t)(end - line)))
		return 1;
	d->line++;
	return bad(d, "NUL byte in line");
}

/* Next line (without its newline) in *line, or 0 at end of input. */
static int read_line(struct reader *r, char **line, struct decide *d)
{
	for (;;) {
		char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
		ssize_t n;

		if (nl) {
			*nl = '\0';
			*line = r->buf + r->start;
			r->start = (size_t)(nl + 1 - r->buf);
			return check_nul(d, *line, nl);
		}
		if (r->eof) {
			if (r->start == r->end)
				return 0;
			r->buf[r->end] = '\0';	/* last line, no newline */
			*line = r->buf + r->start;
			r->start = r->end;
			return check_nul(d, *line, r->buf + r->end);
		}
		if (r->start > 0) {
			memmove(r->buf, r->buf + r->start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (r->end >= sizeof(r->buf) - 1) {
			d->line++;
			return bad(d, "line too long");
		}
		fflush(d->out);
		fflush(stderr);
		n = read(r->fd, r->buf + r->end, sizeof(r->buf) - 1 - r->end);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "decide: read: %s\n", strerror(errno));
			return -1;
		}
		if (n == 0)
			r->eof = true;
		r->end += (size_t)n;
	}
}

static int split(char *s, char **f)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			return n;
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int parse_s64(struct decide *d, const char *what, const char *s,
		     s64 *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, 10);
	if (!(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) || *end)
		return bad(d, "%s: '%s' is not a decimal integer", what, s);
	if (errno)
		return bad(d, "%s: %s is out of range", what, s);
	*v = x;
	return 0;
}

static int parse_u64(struct decide *d, const char *what, const char *s,
		     u64 *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (!(s[0] >= '0' && s[0] <= '9') || *end)
		return bad(d, "%s: '%s' is not a non-negative decimal integer",
			   what, s);
	if (errno)
		return bad(d, "%s: %s is out of range", what, s);
	*v = x;
	return 0;
}

static int parse_bool(struct decide *d, const char *what, const char *s,
		      bool *v)
{
	if (strcmp(s, "0") && strcmp(s, "1"))
		return bad(d, "%s must be 0 or 1, not '%s'", what, s);
	*v = s[0] == '1';
	return 0;
}

static int parse_index(struct decide *d, const char *what, const char *s,
		       int *idx)
{
	/* parse_s64() sets it when it returns 0; gcc -O3 cannot tell */
	s64 v = 0;

	if (parse_s64(d, what, s, &v))
		return -1;
	if (v < 0 || v >= d->drv.state_count)
		return bad(d, "%s: state index %s out of range (%d states)",
			   what, s, d->drv.state_count);
	*idx = (int)v;
	return 0;
}

static int need_fields(struct decide *d, const char *dir, int n, int want)
{
	if (n - 1 != want)
		return bad(d, "%s: expected %d value%s, got %d", dir, want,
			   want == 1 ? "" : "s", n - 1);
	return 0;
}

static int header_only(struct decide *d, const char *dir)
{
	if (d->step != STEP_START)
		return bad(d, "%s must come before the first select", dir);
	return 0;
}

static int do_hz(struct decide *d, char **f, int n)
{
	s64 hz = 0;

	if (header_only(d, "hz") || need_fields(d, "hz", n, 1) ||
	    parse_s64(d, "hz", f[1], &hz))
		return -1;
	if (hz < 1 || hz > 100000)
		return bad(d, "hz: %s is out of range [1, 100000]", f[1]);
	d->hz = (unsigned int)hz;
	return 0;
}

static int parse_flags(struct decide *d, char *s, unsigned int *flags)
{
	char *tok, *next;

	*flags = 0;
	if (!strcmp(s, "-"))
		return 0;
	for (tok = s; tok; tok = next) {
		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		if (!strcmp(tok, "polling"))
			*flags |= CPUIDLE_FLAG_POLLING;
		else if (!strcmp(tok, "timer_stop"))
			*flags |= CPUIDLE_FLAG_TIMER_STOP;
		else
			return bad(d, "state: unknown flag '%s' (flags: "
				   "polling, timer_stop, or - for none)", tok);
	}
	return 0;
}

static int do_state(struct decide *d, char **f, int n)
{
	struct cpuidle_state *s;
	s64 idx = 0, lat = 0, res = 0;
	unsigned int flags;

	if (header_only(d, "state") || need_fields(d, "state", n, 5) ||
	    parse_s64(d, "state", f[1], &idx))
		return -1;
	if (idx != d->drv.state_count)
		return bad(d, "state: expected index %d, got %s",
			   d->drv.state_count, f[1]);
	if (idx >= CPUIDLE_STATE_MAX)
		return bad(d, "state: at most %d states", CPUIDLE_STATE_MAX);
	if (strlen(f[2]) >= CPUIDLE_NAME_LEN)
		return bad(d, "state: name '%s' longer than %d characters",
			   f[2], CPUIDLE_NAME_LEN - 1);
	if (parse_s64(d, "state", f[3], &lat) ||
	    parse_s64(d, "state", f[4], &res) ||
	    parse_flags(d, f[5], &flags))
		return -1;
	if (lat < 0 || res < 0)
		return bad(d, "state: negative exit latency or target "
			   "residency");
	s = &d->drv.states[idx];
	memset(s, 0, sizeof(*s));
	strcpy(s->name, f[2]);
	s->exit_latency_ns = lat;
	s->target_residency_ns = res;
	s->exit_latency = (unsigned int)(lat / NSEC_PER_USEC);
	s->target_residency = (unsigned int)(res / NSEC_PER_USEC);
	s->flags = flags;
	d->drv.state_count++;
	return 0;
}

static int do_disable(struct decide *d, char **f, int n)
{
	bool off = false;
	int idx = 0;

	if (need_fields(d, "disable", n, 2) ||
	    parse_index(d, "disable", f[1], &idx) ||
	    parse_bool(d, "disable: the value", f[2], &off))
		return -1;
	idl_core_set_disabled(&d->dev, idx, off);
	return 0;
}

static int do_latency_req(struct decide *d, char **f, int n)
{
	if (need_fields(d, "latency_req", n, 1))
		return -1;
	return parse_s64(d, "latency_req", f[1], &d->latency_req);
}

/* The first select: the table is complete, the governor is enabled. */
static int start(struct decide *d)
{
	if (d->drv.state_count < 2)
		return bad(d, "select: the state table needs at least 2 states "
			   "(has %d)", d->drv.state_count);
	d->env.tick_nsec = idl_tick_nsec_for_hz(d->hz);
	d->env.hz = d->hz;
	if (idl_governor_attach(&d->dev, &d->gov, &d->drv))
		return bad(d, "select: %s: enable() failed", d->gov.spec);
	d->attached = true;
	return 0;
}

static void explain_select(struct decide *d)
{
	struct cpuidle_device *dev = &d->dev;

	idl_explain_printf(&d->ex, "line %lu: select sleep_length=%lld "
			   "delta_tick=%lld tick_stopped=%d latency_req=%lld "
			   "tick_nsec=%lld", d->line,
			   (long long)d->env.sleep_length,
			   (long long)d->env.delta_tick, d->env.tick_stopped,
			   (long long)d->env.latency_req,
			   (long long)d->env.tick_nsec);
	idl_explain_printf(&d->ex, "  device: last_state_idx=%d "
			   "last_residency_ns=%llu poll_limit_ns=%llu "
			   "poll_time_limit=%d", dev->last_state_idx,
			   (unsigned long long)dev->last_residency_ns,
			   (unsigned long long)dev->poll_limit_ns,
			   dev->poll_time_limit);
}

/* Governor lines are indented under decide's own explain lines. */
static void explain_governor(struct decide *d, bool on)
{
	d->dev.explain = on ? &d->ex : NULL;
	d->ex.prefix = on ? "  " : NULL;
}

static int do_select(struct decide *d, char **f, int n)
{
	struct cpuidle_device *dev = &d->dev;
	bool stop_tick = true;
	s64 sleep = 0, delta = 0;
	bool stopped = false;
	int idx;

	if (d->step == STEP_SELECTED)
		return bad(d, "select after select without reflect or busy");
	if (need_fields(d, "select", n, 3) ||
	    parse_s64(d, "select: SLEEP_LENGTH_NS", f[1], &sleep) ||
	    parse_s64(d, "select: DELTA_TICK_NS", f[2], &delta) ||
	    parse_bool(d, "select: TICK_STOPPED", f[3], &stopped))
		return -1;
	if (d->step == STEP_START && start(d))
		return -1;

	d->env.sleep_length = sleep;
	d->env.delta_tick = delta;
	d->env.tick_stopped = stopped;
	d->env.latency_req = d->latency_req;
	d->env.sleep_length_queried = false;
	if (d->explain) {
		explain_select(d);
		explain_governor(d, true);
	}
	idx = d->gov.ops->select(&d->drv, dev, &stop_tick);
	if (d->explain) {
		if (d->gov.ops->explain_state)
			d->gov.ops->explain_state(dev, &d->ex);
		explain_governor(d, false);
		idl_explain_printf(&d->ex, "  -> %d %d (sleep length %s)", idx,
				   stop_tick, d->env.sleep_length_queried ?
				   "queried" : "not queried");
	}
	fprintf(d->out, "%d %d\n", idx, stop_tick);
	d->selected = idx;
	d->step = STEP_SELECTED;
	return 0;
}

static int do_reflect(struct decide *d, char **f, int n)
{
	struct cpuidle_device *dev = &d->dev;
	bool got_tick = false, ptl = false;
	enum idl_miss miss;
	u64 res = 0;
	int idx = 0;

	if (d->step == STEP_BUSY)
		return bad(d, "reflect after busy: the selection was not "
			   "entered");
	if (d->step != STEP_SELECTED)
		return bad(d, "reflect without a select");
	if (need_fields(d, "reflect", n, 4) ||
	    parse_index(d, "reflect", f[1], &idx) ||
	    parse_u64(d, "reflect: LAST_RESIDENCY_NS", f[2], &res) ||
	    parse_bool(d, "reflect: GOT_TICK", f[3], &got_tick) ||
	    parse_bool(d, "reflect: POLL_TIME_LIMIT", f[4], &ptl))
		return -1;

	/* Entering the poll loop caches its default time limit. */
	if ((d->drv.states[idx].flags & CPUIDLE_FLAG_POLLING) &&
	    !dev->poll_limit_ns)
		idl_core_poll_limit(&d->drv, dev);
	miss = idl_core_account(&d->drv, dev, idx, (s64)res);
	dev->poll_time_limit = ptl;
	/* the clock of a stream: idle time only (selects take none) */
	d->env.now_ns += res;
	/* What tick_nohz_idle_got_tick() answers when first asked. */
	d->env.got_tick = got_tick;
	if (d->explain) {
		idl_explain_printf(&d->ex, "line %lu: reflect entered=%d "
				   "residency=%llu got_tick=%d "
				   "poll_time_limit=%d poll_limit_ns=%llu%s",
				   d->line, idx, (unsigned long long)res,
				   got_tick, ptl,
				   (unsigned long long)dev->poll_limit_ns,
				   miss == IDL_MISS_ABOVE ? " (above)" :
				   miss == IDL_MISS_BELOW ? " (below)" : "");
		explain_governor(d, true);
	}
	if (d->gov.ops->reflect)
		d->gov.ops->reflect(dev, idx);
	if (d->explain)
		explain_governor(d, false);
	d->step = STEP_REFLECTED;
	return 0;
}

static int do_busy(struct decide *d, int n)
{
	if (d->step != STEP_SELECTED)
		return bad(d, "busy without a select");
	if (need_fields(d, "busy", n, 0))
		return -1;
	idl_core_reject(&d->dev, d->selected, false);
	d->step = STEP_BUSY;
	return 0;
}

static int do_line(struct decide *d, char *line)
{
	char *f[MAX_FIELDS + 1];
	int n = split(line, f);

	if (n == 0 || f[0][0] == '#')
		return 0;
	if (n > MAX_FIELDS)
		return bad(d, "%s: too many values", f[0]);
	if (!strcmp(f[0], "select"))
		return do_select(d, f, n);
	if (!strcmp(f[0], "reflect"))
		return do_reflect(d, f, n);
	if (!strcmp(f[0], "busy"))
		return do_busy(d, n);
	if (!strcmp(f[0], "latency_req"))
		return do_latency_req(d, f, n);
	if (!strcmp(f[0], "disable"))
		return do_disable(d, f, n);
	if (!strcmp(f[0], "state"))
		return do_state(d, f, n);
	if (!strcmp(f[0], "hz"))
		return do_hz(d, f, n);
	return bad(d, "unknown directive '%s'", f[0]);
}

static int run(struct decide *d, int fd)
{
	struct reader *r = malloc(sizeof(*r));
	char *line = NULL;
	int ret;

	if (!r) {
		fprintf(stderr, "decide: out of memory\n");
		return IDL_EXIT_FAILURE;
	}
	r->fd = fd;
	r->start = r->end = 0;
	r->eof = false;
	while ((ret = read_line(r, &line, d)) > 0) {
		d->line++;
		/* a line's work may call into a plugin: it has a time
		 * limit (waiting for the next line has none) */
		idl_plugin_call_begin();
		ret = do_line(d, line);
		idl_plugin_call_end();
		if (ret) {
			ret = -1;
			break;
		}
	}
	free(r);
	idl_plugin_call_begin();
	if (d->attached)
		idl_governor_detach(&d->dev, &d->drv);
	idl_plugin_call_end();
	/* (the idlelab command says that standard output failed) */
	if (fflush(d->out) || ferror(d->out))
		return IDL_EXIT_FAILURE;
	return ret < 0 ? IDL_EXIT_BADINPUT : IDL_EXIT_OK;
}

static int setup_governor(struct decide *d, const char *spec)
{
	char err[512];

	if (idl_governor_parse(&d->gov, spec, err, sizeof(err))) {
		fprintf(stderr, "idlelab decide: %s\n", err);
		return -1;
	}
	if (d->gov.ops->needs_hindsight) {
		fprintf(stderr, "idlelab decide: governor '%s' needs "
			"hindsight (the idle duration that follows each select), which a "
			"decision stream does not give; use it in replay\n",
			d->gov.ops->name);
		return -1;
	}
	return 0;
}

int decide_stream(const char *spec, bool explain, int fd, FILE *out)
{
	struct decide *d = calloc(1, sizeof(*d));
	int ret;

	if (!d) {
		fprintf(stderr, "decide: out of memory\n");
		return IDL_EXIT_FAILURE;
	}
	if (setup_governor(d, spec)) {
		free(d);
		return IDL_EXIT_BADINPUT;
	}
	d->explain = explain;
	d->out = out;
	d->hz = DEFAULT_HZ;
	d->latency_req = DEFAULT_LATENCY_REQ;
	d->step = STEP_START;
	idl_explain_init(&d->ex, stderr, NULL);
	idl_env_set_current(&d->env);
	ret = run(d, fd);
	idl_env_set_current(NULL);
	free(d);
	return ret;
}
