// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat files (trace-cmd v6/v7) through libtracecmd.  The top-level
 * buffer and each instance buffer are separate handles; one of them is
 * imported (by name, or the one with most cpu_idle events).
 *
 * libtracecmd trusts the file: a damaged or truncated trace.dat can make
 * it crash.  So it only runs in a forked child, which sends the scan's
 * result and the events back through a pipe; a child killed by a signal
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
#include <sys/prctl.h>
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

/* Scan every buffer of @h, and choose one (scan() in import.h). */
static int scan_dat(struct tracecmd_input *h, const char *path,
		    const char *instance, struct import_scan *s,
		    struct idl_err *err)
{
	struct tracecmd_input *b;
	struct scan_ctx c;
	int i, n, r = 0;

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
	if (r)
		return -1;
	s->hz = hz_est_result(&c.hz);
	s->tmigr = c.hz.tmigr_seen;
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

/* Every event of buffer @name of @h to @sink. */
static int run_dat(struct tracecmd_input *h, const char *path,
		   const char *name, import_sink sink, void *ctx,
		   struct idl_err *err)
{
	struct tracecmd_input *b;
	bool sub;
	int r;

	b = buffer_handle(h, name, &sub);
	if (!b)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: no buffer named '%s'", path, name);
	r = iterate(b, sink, ctx, err);
	if (sub)
		tracecmd_close(b);
	return r;
}

/*
 * Messages of the child: a tag byte, then the payload.  The scan's
 * result, the events of the buffer it chose, the end (with the result
 * and error of the whole), in that order: the file is opened once (its
 * formats and kallsyms took 0.2 s of each opening here).
 */
enum { MSG_EVENT = 'E', MSG_SCAN = 'S', MSG_END = 'R' };

struct dat_job {
	const char		*path;
	const char		*instance;
	struct import_scan	*scan;
	import_ready		ready;
	import_sink		sink;
	void			*ctx;
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

/* A pipe, then a fork: as fork(), or -1 with @err. */
static pid_t fork_piped(int fds[2], struct idl_err *err)
{
	pid_t pid;

	if (pipe(fds)) {
		idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
	}
	return pid;
}

static const char dat_crashed[] = "trace.dat could not be read "
	"(libtracecmd crashed: damaged or truncated file?)";

/* What the scanning process sends back. */
struct scan_reply {
	int			r;
	struct idl_err		err;
	struct import_scan	s;
};

/*
 * The scan, in a process of its own forked from the one that opened @h:
 * iterating a buffer leaves it at its end, and libtracecmd cannot take
 * a compressed buffer back to its start, but a fork made before the scan
 * still holds @h as it was opened.
 */
static int scan_forked(struct tracecmd_input *h, struct dat_job *j,
		       struct idl_err *err)
{
	struct scan_reply rep;
	int fds[2], status;
	pid_t pid, reader;
	size_t got;
	ssize_t n;

	reader = getpid();
	pid = fork_piped(fds, err);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		/* it ends with the reader, which alone talks to idlelab */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != reader)
			_exit(1);
		close(fileno(j->out));
		close(fds[0]);
		memset(&rep, 0, sizeof(rep));
		rep.r = scan_dat(h, j->path, j->instance, &rep.s, &rep.err);
		_exit(write(fds[1], &rep, sizeof(rep)) == sizeof(rep) ? 0 : 1);
	}
	close(fds[1]);
	got = 0;
	while (got < sizeof(rep)) {
		n = read(fds[0], (char *)&rep + got, sizeof(rep) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(rep))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", j->path,
				   dat_crashed);
	if (rep.r) {
		*err = rep.err;
		return -1;
	}
	*j->scan = rep.s;
	return 0;
}

/* The child's work: scan, its result to the parent, then the events. */
static int scan_then_run(struct dat_job *j, struct idl_err *err)
{
	struct tracecmd_input *h = open_dat(j->path, err);
	struct import_scan *s = j->scan;
	int r;

	if (!h)
		return -1;
	r = scan_forked(h, j, err);
	if (!r && put_msg(j->out, MSG_SCAN, s, sizeof(*s)))
		r = idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				strerror(errno));
	if (!r)
		r = run_dat(h, j->path, s->buf[s->chosen].name, pipe_sink, j,
			    err);
	/* not closed: the process ends here, and freeing the parsed
	 * formats and kallsyms one by one took 30 to 50 ms */
	return r;
}

/*
 * The events cross the pipe 80 bytes each: with stdio's 4 KB buffer and
 * the pipe's 64 KB, that is a write, a read and often a switch between
 * the two processes every 50 events.  1 MB each (the pipe's size may be
 * refused, as over /proc/sys/fs/pipe-max-size for a user; then the
 * buffers alone).
 */
#define DAT_PIPE_BUF	(1 << 20)

/* the parent's reading end or the child's writing end: one per process
 * (glibc sizes a buffer it allocates itself by the file, 4 KB for a
 * pipe) */
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
	r = scan_then_run(j, &err);
	if (put_msg(j->out, MSG_END, &r, sizeof(r)) ||
	    fwrite(&err, sizeof(err), 1, j->out) != 1 || fflush(j->out))
		_exit(1);
	/* _exit: the parent's stdio buffers must not be flushed twice */
	_exit(0);
}

/* Read the child's messages; 1 when its end message came, else 0/-1. */
static int read_msgs(FILE *in, struct dat_job *j, struct idl_err *err)
{
	struct raw_event e;
	bool scanned = false;
	int tag, r;

	while ((tag = getc(in)) != EOF) {
		switch (tag) {
		case MSG_EVENT:
			if (!scanned || fread(&e, sizeof(e), 1, in) != 1)
				return 0;
			if (j->sink(j->ctx, &e, err))
				return -1;
			break;
		case MSG_SCAN:
			if (scanned ||
			    fread(j->scan, sizeof(*j->scan), 1, in) != 1)
				return 0;
			scanned = true;
			if (j->ready(j->ctx, j->scan, err))
				return -1;
			break;
		case MSG_END:
			if (fread(&r, sizeof(r), 1, in) != 1 ||
			    fread(err, sizeof(*err), 1, in) != 1)
				return 0;
			/* (success without a scan: not a reader's message) */
			return r ? -1 : scanned ? 1 : 0;
		default:
			return 0;
		}
	}
	return 0;
}

static int child_failed(const char *path, int status, struct idl_err *err)
{
	/*
	 * No result came back: the reader died, by a signal or (in a
	 * sanitizer build, whose handler exits) with a failure status.
	 */
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   dat_crashed);
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "%s: the trace.dat reader stopped without a result",
			   path);
}

/* scan_run() in import.h: libtracecmd in a child (above). */
static int scan_run_dat(const char *path, const char *instance,
			struct import_scan *s, import_ready ready,
			import_sink sink, void *ctx, struct idl_err *err)
{
	struct dat_job j = { path, instance, s, ready, sink, ctx, NULL };
	int fds[2], status, r;
	FILE *in;
	pid_t pid;

	pid = fork_piped(fds, err);
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		child_main(&j, fds[1]);
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
	r = read_msgs(in, &j, err);
	if (r < 0)	/* our error (or the child's): it need not finish */
		kill(pid, SIGKILL);
	fclose(in);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r == 0)
		return child_failed(path, status, err);
	return r < 0 ? -1 : 0;
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
	.scan_run = scan_run_dat,
};
