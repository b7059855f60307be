// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat files (trace-cmd v6/v7) through libtracecmd.  The top-level
 * buffer and each instance buffer are separate handles; one of them is
 * imported (by name, or the one with most cpu_idle events).
 *
 * libtracecmd trusts the file: a damaged or truncated trace.dat can make
 * it crash.  So it only runs in a forked child, which sends the events
 * (or the scan result) back through a pipe; a child killed by a signal
 * becomes a clear error, never a crash of idlelab.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

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
	/* the plugins only format events for printing, which import does
	 * not; nor does it run code from ~/.local/lib/traceevent */
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
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

static int scan_dat(const char *path, const char *instance,
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
	/* as the text importers: a buffer without them is no trace */
	if (!s->buf[s->chosen].idle_events)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no cpu_idle events in buffer '%s'",
				   path, instance);
	return 0;
}

static int run_dat(const char *path, const char *instance,
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

/* Messages of the child: a tag byte, then the payload. */
enum { MSG_EVENT = 'E', MSG_SCAN = 'S', MSG_END = 'R' };

struct dat_job {
	const char		*path;
	const char		*instance;
	struct import_scan	*scan;	/* a scan job, else a run job */
	FILE			*out;	/* child: the pipe */
};

static int put_msg(FILE *f, int tag, const void *p, size_t n)
{
	return putc(tag, f) == EOF || fwrite(p, n, 1, f) != 1 ? -1 : 0;
}

static int pipe_sink(void *ctx, const struct raw_event *e,
		     struct idl_err *err)
{
	struct dat_job *j = ctx;

	if (put_msg(j->out, MSG_EVENT, e, sizeof(*e)))
		return idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				   strerror(errno));
	return 0;
}

/*
 * The events cross the pipe 80 bytes each: with stdio's 4 KB buffer and
 * the pipe's 64 KB, that is a write, a read and often a switch between
 * the two processes every 50 events.  1 MB each (the pipe's size may be
 * refused, as over /proc/sys/fs/pipe-max-size for a user; then the
 * buffers alone).
 */
#define DAT_PIPE_BUF	(1 << 20)

/* the parent's reading end or the child's writing end: one per process,
 * and a parent reads one child at a time (glibc sizes a buffer it
 * allocates itself by the file, 4 KB for a pipe) */
static char pipe_stdio_buf[DAT_PIPE_BUF];

static void pipe_buffers(int fd, FILE *f)
{
	(void)fcntl(fd, F_SETPIPE_SZ, DAT_PIPE_BUF);
	(void)setvbuf(f, pipe_stdio_buf, _IOFBF, DAT_PIPE_BUF);
}

static void __attribute__((noreturn)) child_main(struct dat_job *j, int fd)
{
	struct rlimit no_core = { 0, 0 };
	struct idl_err err = { 0 };
	int r, devnull;

	setrlimit(RLIMIT_CORE, &no_core);	/* a crash is expected here */
	/*
	 * The result and any error come back through the pipe; what the
	 * library (or a sanitizer catching its crash) prints is noise.
	 */
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull >= 0)
		dup2(devnull, STDERR_FILENO);
	j->out = fdopen(fd, "w");
	if (!j->out)
		_exit(1);
	pipe_buffers(fd, j->out);
	if (j->scan)
		r = scan_dat(j->path, j->instance, j->scan, &err);
	else
		r = run_dat(j->path, j->instance, pipe_sink, j, &err);
	if ((j->scan && !r && put_msg(j->out, MSG_SCAN, j->scan,
				      sizeof(*j->scan))) ||
	    put_msg(j->out, MSG_END, &r, sizeof(r)) ||
	    fwrite(&err, sizeof(err), 1, j->out) != 1 || fflush(j->out))
		_exit(1);
	/* _exit: the parent's stdio buffers must not be flushed twice */
	_exit(0);
}

/* Read the child's messages; 1 when its end message came, else 0/-1. */
static int read_msgs(FILE *in, struct dat_job *j, import_sink sink,
		     void *ctx, struct idl_err *err)
{
	struct raw_event e;
	int tag, r;

	while ((tag = getc(in)) != EOF) {
		switch (tag) {
		case MSG_EVENT:
			if (!sink || fread(&e, sizeof(e), 1, in) != 1)
				return 0;
			if (sink(ctx, &e, err))
				return -1;
			break;
		case MSG_SCAN:
			if (!j->scan ||
			    fread(j->scan, sizeof(*j->scan), 1, in) != 1)
				return 0;
			break;
		case MSG_END:
			if (fread(&r, sizeof(r), 1, in) != 1 ||
			    fread(err, sizeof(*err), 1, in) != 1)
				return 0;
			return r ? -1 : 1;
		default:
			return 0;
		}
	}
	return 0;
}

static int child_failed(const char *path, int status, struct idl_err *err)
{
	static const char crashed[] = "trace.dat could not be read "
		"(libtracecmd crashed: damaged or truncated file?)";

	/*
	 * No result came back: the reader died, by a signal or (in a
	 * sanitizer build, whose handler exits) with a failure status.
	 */
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   crashed);
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "%s: the trace.dat reader stopped without a result",
			   path);
}

static int in_child(struct dat_job *j, import_sink sink, void *ctx,
		    struct idl_err *err)
{
	int fds[2], status, r;
	FILE *in;
	pid_t pid;

	if (pipe(fds))
		return idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				   strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
				   strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child_main(j, fds[1]);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	if (!in) {
		close(fds[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return idl_err_set(err, IDL_EXIT_FAILURE, "fdopen: %s",
				   strerror(errno));
	}
	pipe_buffers(fds[0], in);
	r = read_msgs(in, j, sink, ctx, err);
	if (r < 0)	/* our error (or the child's): it need not finish */
		kill(pid, SIGKILL);
	fclose(in);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r == 0)
		return child_failed(j->path, status, err);
	return r < 0 ? -1 : 0;
}

static int scan_in_child(const char *path, const char *instance,
			 struct import_scan *s, struct idl_err *err)
{
	struct dat_job j = { path, instance, s, NULL };

	return in_child(&j, NULL, NULL, err);
}

static int run_in_child(const char *path, const char *instance,
			import_sink sink, void *ctx, struct idl_err *err)
{
	struct dat_job j = { path, instance, NULL, NULL };

	return in_child(&j, sink, ctx, err);
}

/* The magic every trace.dat starts with: 0x17 0x08 'D' "tracing". */
static bool detect(const unsigned char *head, size_t n)
{
	return n >= 10 && !memcmp(head, "\x17\x08\x44tracing", 10);
}

const struct importer importer_dat = {
	.name	= "dat",
	.desc	= "trace.dat",
	.detect	= detect,
	.scan	= scan_in_child,
	.run	= run_in_child,
};
