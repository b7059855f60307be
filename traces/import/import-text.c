// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scan of the text importers (ftrace text and trace-cmd report text:
 * import-ftrace.c and import-report.c differ only in how their files
 * start): which buffers hold cpu_idle events, how many CPUs, HZ, before
 * the run (text-run.c) reads it again.  Only the fields the HZ estimate
 * needs are read here; the run reads every field and finds the errors.
 *
 * The file is read in chunks (text-chunk.c), on two threads when it is
 * large; each chunk's findings are merged into the file's in file order,
 * so that the result, and the first error, are those of one sequential
 * read.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "text-import.h"

/* What the scan found in a chunk of the file, or in the chunks so far. */
struct scan_part {
	struct text_fast	fast;		/* sink: scan_sink */
	char			buffer[64];	/* the line's instance */
	struct hz_est		hz;
	uint32_t		max_cpu;
	/* stated by the file: the last statement counts */
	uint32_t		nr_cpus, hz_stated;
	bool			cpus_set, hz_set, latency_set, dev_qos_set;
	int64_t			latency_req_ns;
	/* each CPU's resume latency at the start (record --raw), -1 none */
	int32_t			dev_qos_us[TRACE_MAX_CPUS];
	char			clock[32], kernel[128];
	uint64_t		overwritten;	/* by the ring buffer */
	/* each CPU's earliest event time + 1 (0: none) */
	uint64_t		first_ts[TRACE_MAX_CPUS];
	/* cpu_idle events per buffer, in order of appearance */
	int			nr_buffers;
	bool			overflow;	/* some not counted */
	struct {
		char		name[64];
		uint64_t	idle_events;
	} buf[IMPORT_MAX_BUFFERS];
};

static int scan_sink(void *ctx, const struct raw_event *e,
		     struct idl_err *err)
{
	struct scan_part *p = ctx;
	int i;

	(void)err;
	hz_est_feed(&p->hz, e);
	if (e->type == EV_LOST)
		return 0;
	if (e->cpu + 1 > p->max_cpu)
		p->max_cpu = e->cpu + 1;
	if (e->cpu < TRACE_MAX_CPUS && (!p->first_ts[e->cpu] ||
					e->ts < p->first_ts[e->cpu] - 1))
		p->first_ts[e->cpu] = e->ts + 1;
	if (e->type != EV_CPU_IDLE)
		return 0;
	for (i = 0; i < p->nr_buffers; i++)
		if (!strcmp(p->buf[i].name, p->buffer))
			break;
	if (i == p->nr_buffers) {
		if (i == IMPORT_MAX_BUFFERS) {
			p->overflow = true;
			return 0;
		}
		snprintf(p->buf[i].name, sizeof(p->buf[i].name), "%s",
			 p->buffer);
		p->nr_buffers++;
	}
	p->buf[i].idle_events++;
	return 0;
}

/* "CPU:US,CPU:US,...": the CPUs with a resume-latency constraint. */
static int raw_dev_qos(const char *v, struct scan_part *p)
{
	unsigned long long cpu, us;
	char *end;
	int i;

	for (i = 0; i < TRACE_MAX_CPUS; i++)
		p->dev_qos_us[i] = -1;
	p->dev_qos_set = true;
	for (;;) {
		errno = 0;
		cpu = strtoull(v, &end, 10);
		if (!isdigit((unsigned char)*v) || errno ||
		    cpu >= TRACE_MAX_CPUS || *end != ':')
			return -1;
		v = end + 1;
		us = strtoull(v, &end, 10);
		if (!isdigit((unsigned char)*v) || errno || us >= INT32_MAX)
			return -1;
		p->dev_qos_us[cpu] = (int32_t)us;
		if (*end != ',')
			return *end && !isspace((unsigned char)*end) ? -1 : 0;
		v = end + 1;
	}
}

/*
 * "# idlelab-raw: clock=mono hz=250 latency_req_ns=N
 * resume_latency_us=CPU:US,... kernel=R" (idlelab record --raw); HZ 0
 * (unknown) or within the bounds of --hz: no wrapped value.  Returns
 * what is wrong, or NULL.
 */
static const char *raw_header(const char *s, struct scan_part *p)
{
	const char *v;
	unsigned long long hz;
	char *end;

	if ((v = strstr(s, "clock=")))
		sscanf(v, "clock=%31s", p->clock);
	if ((v = strstr(s, "hz="))) {
		v += 3;
		errno = 0;
		hz = strtoull(v, &end, 10);
		if (!isdigit((unsigned char)*v) || errno || hz > 10000 ||
		    (*end && !isspace((unsigned char)*end)))
			return "bad hz= value (0 to 10000)";
		p->hz_stated = (uint32_t)hz;	/* record writes 0: unknown */
		p->hz_set = true;
	}
	if ((v = strstr(s, "kernel=")))
		sscanf(v, "kernel=%127s", p->kernel);
	if ((v = strstr(s, "latency_req_ns="))) {
		long long ns;

		v += strlen("latency_req_ns=");
		errno = 0;
		ns = strtoll(v, &end, 10);
		if (end == v || errno || ns < -1 ||
		    (*end && !isspace((unsigned char)*end)))
			return "bad latency_req_ns= value (-1 or more)";
		p->latency_req_ns = ns;	/* record writes -1: unknown */
		p->latency_set = ns >= 0;
	}
	if ((v = strstr(s, "resume_latency_us=")) &&
	    raw_dev_qos(v + strlen("resume_latency_us="), p))
		return "bad resume_latency_us= value (CPU:US,...)";
	return NULL;
}

/* "cpus=N" of trace-cmd report: N within what a trace can hold. */
static int parse_cpus(const char *s, unsigned int *n)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || v > TRACE_MAX_CPUS ||
	    (*end && !isspace((unsigned char)*end)))
		return -1;
	*n = (unsigned int)v;
	return 0;
}

/*
 * "# entries-in-buffer/entries-written: 3835/48659   #P:2", the header
 * of the tracefs "trace" file: more written than kept means that the
 * ring buffer overwrote the oldest events (no "LOST" line says so).
 */
static bool overwritten_line(const char *s, struct scan_part *p)
{
	unsigned long long kept, written;

	if (sscanf(s, "# entries-in-buffer/entries-written: %llu/%llu",
		   &kept, &written) != 2)
		return false;
	if (written > kept)
		p->overwritten += written - kept;
	return true;
}

static int scan_line(void *ctx, unsigned long lineno, char *line,
		     size_t len, bool plain, struct idl_err *err)
{
	struct scan_part *p = ctx;
	unsigned int n;
	int r;

	if (line[0] == 'c' && !strncmp(line, "cpus=", 5)) {
		if (parse_cpus(line + 5, &n))
			return idl_err_at_line(err, p->fast.path, lineno,
					       "bad cpus= value (at most %d CPUs)",
					       TRACE_MAX_CPUS);
		p->nr_cpus = n;
		p->cpus_set = true;
		return 0;
	}
	if (line[0] == '#' && overwritten_line(line, p))
		return 0;
	if (line[0] == '#' && !strncmp(line, "# idlelab-raw:", 14)) {
		const char *bad = raw_header(line + 14, p);

		if (bad)
			return idl_err_at_line(err, p->fast.path, lineno,
					       "%s", bad);
		return 0;
	}
	p->buffer[0] = 0;
	if (plain) {
		r = text_fast_line(&p->fast, lineno, line, len, err);
		if (r != TEXT_SLOW)
			return r;
	}
	return import_text_line(p->fast.path, lineno, line, NULL, p->buffer,
				sizeof(p->buffer), scan_sink, p, err);
}

static void scan_reset(void *out)
{
	struct scan_part *p = out;
	const char *path = p->fast.path;
	uint32_t fields_of = p->fast.fields_of;

	memset(p, 0, sizeof(*p));
	p->fast.path = path;
	p->fast.fields_of = fields_of;
	p->fast.sink = scan_sink;
	p->fast.ctx = p;
	hz_est_init(&p->hz);
}

struct scan_ctx {
	const char		*path;
	uint32_t		fields_of;	/* text_fast's */
	struct scan_part	all;		/* the chunks taken */
	struct scan_part	again;		/* for messages made again */
};

static void scan_init(void *ctx, void *out)
{
	struct scan_ctx *sc = ctx;
	struct scan_part *p = out;

	p->fast.path = sc->path;
	p->fast.fields_of = sc->fields_of;
	scan_reset(p);
}

/* Add what @b found after @a's part of the file to @a. */
static void scan_merge(struct scan_part *a, const struct scan_part *b)
{
	int i, j;

	for (j = 0; j < b->nr_buffers; j++) {
		for (i = 0; i < a->nr_buffers; i++)
			if (!strcmp(a->buf[i].name, b->buf[j].name))
				break;
		if (i == a->nr_buffers) {
			if (i == IMPORT_MAX_BUFFERS)
				continue;
			a->buf[a->nr_buffers++] = b->buf[j];
		} else {
			a->buf[i].idle_events += b->buf[j].idle_events;
		}
	}
	hz_est_merge(&a->hz, &b->hz);
	a->overwritten += b->overwritten;
	for (i = 0; i < TRACE_MAX_CPUS; i++)
		if (b->first_ts[i] && (!a->first_ts[i] ||
				       b->first_ts[i] < a->first_ts[i]))
			a->first_ts[i] = b->first_ts[i];
	if (b->max_cpu > a->max_cpu)
		a->max_cpu = b->max_cpu;
	if (b->cpus_set) {
		a->nr_cpus = b->nr_cpus;
		a->cpus_set = true;
	}
	if (b->hz_set) {
		a->hz_stated = b->hz_stated;
		a->hz_set = true;
	}
	if (b->clock[0])
		memcpy(a->clock, b->clock, sizeof(a->clock));
	if (b->kernel[0])
		memcpy(a->kernel, b->kernel, sizeof(a->kernel));
	if (b->latency_set) {
		a->latency_req_ns = b->latency_req_ns;
		a->latency_set = true;
	}
	if (b->dev_qos_set) {
		memcpy(a->dev_qos_us, b->dev_qos_us, sizeof(a->dev_qos_us));
		a->dev_qos_set = true;
	}
}

static int scan_take(void *ctx, struct text_chunk *c, struct idl_err *err)
{
	struct scan_ctx *sc = ctx;
	struct scan_part *p = c->out;

	if (c->status == TEXT_CHUNK_ERROR) {
		scan_reset(&sc->again);
		return text_chunk_again(c, false, scan_line, &sc->again, err);
	}
	/* buffers the chunk could not count: read it again into all */
	if (p->overflow) {
		return text_chunk_redo(c, scan_line, &sc->all, err);
	}
	/* (a bad last line skipped: the run says so, reading every field) */
	scan_merge(&sc->all, p);
	return 0;
}

static const struct text_ops scan_ops = {
	.out_size	= sizeof(struct scan_part),
	.init		= scan_init,
	.reset		= scan_reset,
	.line		= scan_line,
	.take		= scan_take,
};

/* What @p found, as the scan's result. */
static void scan_result(const struct scan_part *p, struct import_scan *s)
{
	int i;

	s->nr_cpus = p->nr_cpus;
	if (p->hz_set) {
		s->hz = p->hz_stated;
		s->hz_from_file = p->hz_stated != 0;
	}
	memcpy(s->clock, p->clock, sizeof(s->clock));
	memcpy(s->kernel, p->kernel, sizeof(s->kernel));
	s->latency_set = p->latency_set;
	s->latency_req_ns = p->latency_req_ns;
	s->dev_qos_set = p->dev_qos_set;
	memcpy(s->dev_qos_us, p->dev_qos_us, sizeof(s->dev_qos_us));
	s->overwritten = p->overwritten;
	/* an overwritten buffer keeps less time of the busier CPUs: the
	 * periods before all CPUs' records begin lack their events */
	for (i = 0; p->overwritten && i < TRACE_MAX_CPUS; i++)
		if (p->first_ts[i] && p->first_ts[i] - 1 > s->complete_from)
			s->complete_from = p->first_ts[i] - 1;
	for (i = 0; i < p->nr_buffers; i++) {
		memcpy(s->buf[i].name, p->buf[i].name, sizeof(s->buf[i].name));
		s->buf[i].idle_events = p->buf[i].idle_events;
	}
	s->nr_buffers = p->nr_buffers;
	if (!s->hz)
		s->hz = hz_est_result(&p->hz);
	s->tmigr = p->hz.tmigr_seen;
	if (!s->nr_cpus)
		s->nr_cpus = p->max_cpu;
}

/* The buffer to import: @instance, or the one with most cpu_idle. */
static int choose_buffer(struct import_scan *s, const char *instance,
			 const char *path, struct idl_err *err)
{
	int i;

	s->chosen = -1;
	for (i = 0; i < s->nr_buffers; i++) {
		if (instance && !strcmp(s->buf[i].name, instance))
			s->chosen = i;
		else if (!instance && (s->chosen < 0 ||
			 s->buf[i].idle_events > s->buf[s->chosen].idle_events))
			s->chosen = i;
	}
	if (s->chosen < 0 && instance)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no cpu_idle events in buffer '%s'",
				   path, instance);
	if (s->chosen < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no power:cpu_idle events in the "
				   "layouts read (ftrace text, trace-cmd "
				   "report, perf script)", path);
	return 0;
}

int import_text_scan(const char *path, const char *instance,
		     struct import_scan *s, struct idl_err *err)
{
	struct scan_ctx *sc = calloc(1, sizeof(*sc));
	int r;

	memset(s, 0, sizeof(*s));
	if (!sc)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	sc->path = path;
	/* the HZ estimate's events; the others count by type, CPU and time,
	 * and their fields are read by the run */
	sc->fields_of = 1U << EV_HRTIMER_START | 1U << EV_TIMER_START |
			1U << EV_TIMER_EXPIRE_ENTRY;
	scan_init(sc, &sc->all);
	scan_init(sc, &sc->again);
	r = text_par_run(path, &scan_ops, sc, err);
	/* bad input: an unread field before it may be the first error;
	 * read every field again (bad files only) to name that one */
	if (r && err->status == IDL_EXIT_BADINPUT) {
		sc->fields_of = 0;
		scan_init(sc, &sc->all);
		scan_init(sc, &sc->again);
		r = text_par_run(path, &scan_ops, sc, err);
	}
	if (!r)
		scan_result(&sc->all, s);
	free(sc);
	return r ? -1 : choose_buffer(s, instance, path, err);
}
