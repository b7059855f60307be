// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat files (trace-cmd v6/v7) through libtracecmd.  The top-level
 * buffer and each instance buffer are separate handles; one of them is
 * imported (by name, or the one with most cpu_idle events).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <trace-cmd.h>

#include "decode-bin.h"
#include "import.h"

struct dat_ctx {
	struct bin_decoder	d;
	import_sink		sink;
	void			*ctx;
	struct idl_err		*err;
	int			failed;
};

static int dat_cb(struct tracecmd_input *h, struct tep_record *r, int cpu,
		  void *data)
{
	struct dat_ctx *c = data;

	(void)h;
	(void)cpu;
	if (bin_decode(&c->d, r, c->sink, c->ctx, c->err)) {
		c->failed = 1;
		return 1;
	}
	return 0;
}

static int iterate(struct tracecmd_input *h, import_sink sink, void *ctx,
		   struct idl_err *err)
{
	struct dat_ctx c = { .sink = sink, .ctx = ctx, .err = err };

	bin_decoder_init(&c.d, tracecmd_get_tep(h));
	if (tracecmd_iterate_events(h, NULL, 0, dat_cb, &c) < 0 && !c.failed)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "libtracecmd could not read the events");
	return c.failed ? -1 : 0;
}

static struct tracecmd_input *open_dat(const char *path, struct idl_err *err)
{
	struct tracecmd_input *h;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, 0);
	if (!h)
		idl_err_set(err, IDL_EXIT_BADINPUT,
			    "%s: not a readable trace.dat file", path);
	return h;
}

/* Handle of buffer @name ("" = top-level); *@sub tells to close it. */
static struct tracecmd_input *buffer_handle(struct tracecmd_input *h,
					    const char *name, bool *sub)
{
	int i, n = tracecmd_buffer_instances(h);

	*sub = false;
	if (!name || !name[0])
		return h;
	for (i = 0; i < n; i++) {
		const char *bn = tracecmd_buffer_instance_name(h, i);

		if (bn && !strcmp(bn, name)) {
			*sub = true;
			return tracecmd_buffer_instance_handle(h, i);
		}
	}
	return NULL;
}

struct scan_ctx {
	struct import_scan	*s;
	struct hz_est		hz;
	uint64_t		idle;
	uint32_t		max_cpu;
};

static int scan_sink(void *ctx, const struct raw_event *e,
		     struct idl_err *err)
{
	struct scan_ctx *c = ctx;

	(void)err;
	c->s->events++;
	hz_est_feed(&c->hz, e);
	if (e->type == EV_CPU_IDLE)
		c->idle++;
	if (e->cpu + 1 > c->max_cpu)
		c->max_cpu = e->cpu + 1;
	return 0;
}

static int scan_buffer(struct tracecmd_input *h, const char *name,
		       struct scan_ctx *c, struct idl_err *err)
{
	struct import_scan *s = c->s;
	int i = s->nr_buffers;

	if (i == IMPORT_MAX_BUFFERS)
		return 0;
	c->idle = 0;
	if (iterate(h, scan_sink, c, err))
		return -1;
	snprintf(s->buf[i].name, sizeof(s->buf[i].name), "%s", name);
	s->buf[i].idle_events = c->idle;
	s->nr_buffers++;
	return 0;
}

int import_dat_scan(const char *path, const char *instance,
		    struct import_scan *s, struct idl_err *err)
{
	struct tracecmd_input *h = open_dat(path, err), *b;
	struct scan_ctx c;
	int i, n, r = 0;

	if (!h)
		return -1;
	memset(s, 0, sizeof(*s));
	memset(&c, 0, sizeof(c));
	c.s = s;
	hz_est_init(&c.hz);
	s->fmt = IMPORT_DAT;
	s->chosen = -1;
	r = scan_buffer(h, "", &c, err);
	n = tracecmd_buffer_instances(h);
	for (i = 0; !r && i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(h, i);

		b = tracecmd_buffer_instance_handle(h, i);
		if (!b || !name)
			continue;
		r = scan_buffer(b, name, &c, err);
		tracecmd_close(b);
	}
	tracecmd_close(h);
	if (r)
		return -1;
	s->hz = hz_est_result(&c.hz);
	s->nr_cpus = c.max_cpu;
	for (i = 0; i < s->nr_buffers; i++) {
		if (instance && !strcmp(s->buf[i].name, instance))
			s->chosen = i;
		else if (!instance && s->buf[i].idle_events &&
			 (s->chosen < 0 || s->buf[i].idle_events >
			  s->buf[s->chosen].idle_events))
			s->chosen = i;
	}
	if (s->chosen < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT, instance ?
				   "%s: no buffer named '%s'" :
				   "%s: no power:cpu_idle events%s", path,
				   instance ? instance : "");
	return 0;
}

int import_dat_run(const char *path, const char *instance,
		   import_sink sink, void *ctx, struct idl_err *err)
{
	struct tracecmd_input *h = open_dat(path, err), *b;
	bool sub;
	int r;

	if (!h)
		return -1;
	b = buffer_handle(h, instance, &sub);
	if (!b) {
		tracecmd_close(h);
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no buffer named '%s'", path, instance);
	}
	r = iterate(b, sink, ctx, err);
	if (sub)
		tracecmd_close(b);
	tracecmd_close(h);
	return r;
}
