// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plugin columns run contained (governors/plugin-contain.c): each in a
 * process of its own, forked before any replay thread exists, which
 * replays every trace with only that column and sends its per-CPU
 * numbers back through a pipe.  A plugin that crashes, corrupts memory
 * or stops making progress loses its own column only; the parent says
 * why in run->failed.  Progress is a count of periods in shared memory:
 * a column that does not advance for the timeout is killed.
 *
 * What a plugin's process writes for --explain and --disagreements goes
 * to files of its own, sent after its numbers and appended to the
 * parent's, CPU by CPU.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plugin.h"
#include "run.h"

#define DEFAULT_TIMEOUT_S	10

struct column {
	int			gi;	/* its column */
	struct idl_contained	c;
};

struct replay_contained {
	int		n;
	struct column	col[REPLAY_MAX_GOV];
};

/* What the plugin's process of one column needs. */
struct column_job {
	struct replay_run		*run;
	const struct replay_opts	*o;
	int				gi;
};

/* A text file as u64 length + bytes. */
static int send_file(int fd, FILE *f)
{
	char buf[8192];
	u64 len = 0;
	size_t n;

	if (f) {
		fflush(f);
		fseeko(f, 0, SEEK_END);
		len = (u64)ftello(f);
		rewind(f);
	}
	if (idl_write_all(fd, &len, sizeof(len)))
		return -1;
	while (len && (n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (idl_write_all(fd, buf, n))
			return -1;
		len -= n < len ? n : len;
	}
	return 0;
}

/* Swap a trace's per-CPU text files for fresh ones of this process. */
static void own_files(FILE **f, unsigned int n)
{
	unsigned int u;

	for (u = 0; f && u < n; u++)
		if (f[u] && !(f[u] = tmpfile()))
			_exit(3);
}

/*
 * In the plugin's process: replay its column only, then send "R", per
 * trace and CPU its score, and the explain and disagreement texts; or
 * "E" and the error message.
 */
static void column_main(void *ctx, u64 *progress, int wfd)
{
	const struct column_job *job = ctx;
	struct replay_run *run = job->run;
	struct replay_opts co = *job->o;
	int gi = job->gi, t, j;
	struct idl_err err;
	unsigned int u;

	memset(&err, 0, sizeof(err));
	if (idl_plugin_activate(co.gov[gi].ops, &err)) {
		idl_write_all(wfd, "E", 1);
		idl_write_all(wfd, err.msg, strlen(err.msg));
		_exit(2);
	}
	co.progress = false;	/* the parent's line only */
	run->progress = progress;
	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (j = 0; j < tr->setup.ngov; j++)
			tr->setup.skip[j] = j != gi;
		own_files(tr->explain, tr->ncpu);
		own_files(tr->disagree, tr->ncpu);
	}
	if (replay_run_units(run, &co, &err)) {
		idl_write_all(wfd, "E", 1);
		idl_write_all(wfd, err.msg, strlen(err.msg));
		_exit(2);
	}
	if (idl_write_all(wfd, "R", 1))
		_exit(4);
	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (u = 0; u < tr->ncpu; u++)
			if (idl_write_all(wfd, &tr->cpus[u].sc[gi],
					  sizeof(tr->cpus[u].sc[gi])) ||
			    send_file(wfd, tr->explain ? tr->explain[u] : NULL) ||
			    send_file(wfd, tr->disagree ?
				      tr->disagree[u] : NULL))
				_exit(4);
	}
	_exit(0);
}

int replay_contain_start(struct replay_run *run, const struct replay_opts *o,
			 struct replay_contained **cp, struct idl_err *err)
{
	struct replay_contained *c;
	struct column_job job = { .run = run, .o = o };
	struct column *col;
	int gi, t;

	*cp = NULL;
	for (gi = 0; gi < o->ngov; gi++)
		if (idl_governor_is_plugin(o->gov[gi].ops))
			break;
	if (gi == o->ngov)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	*cp = c;
	for (gi = 0; gi < o->ngov; gi++) {
		if (!idl_governor_is_plugin(o->gov[gi].ops))
			continue;
		col = &c->col[c->n++];
		col->gi = job.gi = gi;
		col->c.fd = -1;
		if (idl_contained_start(&col->c, column_main, &job, err))
			return -1;
		for (t = 0; t < run->ntrace; t++)
			run->tr[t].setup.skip[gi] = true;
	}
	return 0;
}

static void fail(struct replay_run *run, int gi, const char *what)
{
	free(run->failed[gi]);
	run->failed[gi] = strdup(what);
}

/* Append @len bytes at *@p to @f (the parent's file of that CPU). */
static int take_text(FILE *f, const char **p, const char *end)
{
	u64 len;

	if ((size_t)(end - *p) < sizeof(len))
		return -1;
	memcpy(&len, *p, sizeof(len));
	*p += sizeof(len);
	if (len > (u64)(end - *p))
		return -1;
	if (f && len) {
		fseeko(f, 0, SEEK_END);
		fwrite(*p, 1, (size_t)len, f);
	}
	*p += len;
	return 0;
}

/* Copy the child's numbers into @run; -1 if the stream is short. */
static int take_results(struct replay_run *run, const struct column *col)
{
	const struct idl_contained *ch = &col->c;
	const char *p = ch->buf + 1, *end = ch->buf + ch->len;
	unsigned int u;
	int t;

	for (t = 0; t < run->ntrace; t++) {
		struct replay_trace *tr = &run->tr[t];

		for (u = 0; u < tr->ncpu; u++) {
			struct replay_score *sc = &tr->cpus[u].sc[col->gi];

			if ((size_t)(end - p) < sizeof(*sc))
				return -1;
			memcpy(sc, p, sizeof(*sc));
			p += sizeof(*sc);
			if (take_text(tr->explain ? tr->explain[u] : NULL,
				      &p, end) ||
			    take_text(tr->disagree ? tr->disagree[u] : NULL,
				      &p, end))
				return -1;
		}
	}
	return 0;
}

/* Collect one plugin's process; on failure, say why in run->failed. */
static void finish_one(struct replay_run *run, struct column *col,
		       unsigned int timeout_s)
{
	const char *name = run->tr[0].setup.gov[col->gi].spec;
	struct idl_contained *ch = &col->c;
	const char *why = idl_contained_collect(ch, timeout_s);
	int status = ch->status;
	char what[300];

	if (why && !strcmp(why, IDL_CONTAINED_STALLED)) {
		snprintf(what, sizeof(what), "%s: no progress for %u s "
			 "(a loop in its select() or reflect()?); killed",
			 name, timeout_s);
		fail(run, col->gi, what);
	} else if (WIFSIGNALED(status)) {
		snprintf(what, sizeof(what), "%s: crashed (%s)", name,
			 strsignal(WTERMSIG(status)));
		fail(run, col->gi, what);
	} else if (ch->len && ch->buf[0] == 'E') {
		snprintf(what, sizeof(what), "%s: %.*s", name,
			 (int)(ch->len - 1), ch->buf + 1);
		fail(run, col->gi, what);
	} else if (why || !ch->len || ch->buf[0] != 'R' ||
		   take_results(run, col)) {
		snprintf(what, sizeof(what), "%s: its process ended without "
			 "its results (exit status %d)", name,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		fail(run, col->gi, what);
	}
	idl_contained_release(ch);
}

int replay_contain_finish(struct replay_run *run, struct replay_contained *c,
			  unsigned int timeout_s, struct idl_err *err)
{
	int i, t;

	(void)err;
	if (!c)
		return 0;
	for (i = 0; i < c->n; i++)
		finish_one(run, &c->col[i],
			   timeout_s ? timeout_s : DEFAULT_TIMEOUT_S);
	for (t = 0; t < run->ntrace; t++)
		for (i = 0; i < REPLAY_MAX_GOV; i++)
			run->tr[t].failed[i] = run->failed[i];
	free(c);
	return 0;
}
