// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lines of a text file, read in chunks: chunk k holds the lines that
 * start in bytes [k * TEXT_CHUNK, (k + 1) * TEXT_CHUNK) of the file (the
 * size can be set by IDLELAB_IMPORT_CHUNK, for tests), read
 * with pread() into a buffer of its own, so that chunks can be read and
 * parsed on two threads at once.  Their results are taken in file order
 * on the caller's thread, which also parses chunks when it has nothing to
 * take; at most TEXT_SLOTS chunks are in memory.
 *
 * Each line is handed out in place, NUL-terminated, with no copy,
 * allocation or stdio of its own.  A line longer than IMPORT_LINE_MAX is
 * an error, so the buffers are bounded.  The bytes that make a line
 * unlike the others (a CR or a NUL, which end it for the parsers, and the
 * ": CPU:" of a lost-events line) are looked for with memchr() across the
 * chunk, not line by line.
 *
 * A chunk's lines are numbered from 1 when a thread parses it ahead; a
 * message that needs the line's number in the file is made again when
 * the chunk is taken and the lines before it are counted.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "text-import.h"

#define NUL_IN_LINE	"a NUL byte in the line (a damaged file?)"

/* zeros after a buffer, for the fast path's reads past a line's end */
#define TEXT_SLACK	64
/* bytes read for a chunk of @n: the longest line that can start at its
 * end and its '\n', and the byte before the chunk */
#define CHUNK_CAP(n)	((n) + IMPORT_LINE_MAX + 2)

struct text_par {
	const char		*path;
	int			fd;
	uint64_t		size;		/* of the file when opened */
	uint64_t		chunk;		/* bytes: TEXT_CHUNK */
	const struct text_ops	*ops;
	void			*ctx;
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	/* chunk k is in slot k % TEXT_SLOTS */
	struct text_chunk	slot[TEXT_SLOTS];
	bool			parsed[TEXT_SLOTS];
	uint64_t		issued, taken;	/* chunks */
	uint64_t		nr_chunks;
	unsigned long		lines;		/* in the chunks taken */
	bool			stop;
};

/* pread() until @n bytes or the end of the file; -1 on an error. */
static ssize_t read_at(int fd, char *buf, size_t n, uint64_t off)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static size_t next_byte(const struct text_chunk *c, char ch)
{
	const char *q = memchr(c->buf + c->pos, ch, c->len - c->pos);

	return q ? (size_t)(q - c->buf) : c->len;
}

/* Where ": CPU:" may start (its 'U' found, the rest not all checked). */
static size_t next_lost(const struct text_chunk *c)
{
	const char *from = c->buf + c->pos, *end = c->buf + c->len;
	const char *p = from, *q;

	while ((q = memchr(p, 'U', (size_t)(end - p)))) {
		/* within a line: one cannot start before its start */
		if (q - from >= 4 && !memcmp(q - 4, ": CP", 4))
			return (size_t)(q - 4 - c->buf);
		p = q + 1;
	}
	return c->len;
}

/* The first CR, NUL or ": CPU:" at or after pos. */
static size_t next_special(struct text_chunk *c)
{
	size_t m;

	if (c->fresh || c->cr < c->pos)
		c->cr = next_byte(c, '\r');
	if (c->fresh || c->nul < c->pos)
		c->nul = next_byte(c, '\0');
	if (c->fresh || c->lost < c->pos)
		c->lost = next_lost(c);
	c->fresh = false;
	m = c->cr < c->nul ? c->cr : c->nul;
	return m < c->lost ? m : c->lost;
}

/* More of the file after the chunk's bytes, for its last line. */
static int extend(struct text_chunk *c, int fd, size_t want)
{
	ssize_t got;

	if (want > c->cap - c->len)
		want = c->cap - c->len;
	got = read_at(fd, c->buf + c->len, want, c->off + c->len);
	if (got < 0)
		return -1;
	c->len += (size_t)got;
	c->eof = (size_t)got < want;
	c->fresh = true;
	return 0;
}

/*
 * The next line of @c: its length, NUL-terminated in place of its '\n'
 * and cut at its first CR; TEXT_END after the chunk's last line,
 * TEXT_TOO_LONG, TEXT_NUL or TEXT_READ_ERROR (errno).
 */
static long chunk_next(struct text_chunk *c, int fd, char **line)
{
	char *s, *nl, *cut;
	bool last;
	size_t n;

	if (c->pos >= c->stop || c->pos >= c->len)
		return TEXT_END;
	for (;;) {
		s = c->buf + c->pos;
		n = c->len - c->pos;
		nl = memchr(s, '\n', n);
		if (nl || n > IMPORT_LINE_MAX || c->eof)
			break;
		if (extend(c, fd, IMPORT_LINE_MAX + 1 - n))
			return TEXT_READ_ERROR;
	}
	/* a line with its '\n' must fit in IMPORT_LINE_MAX bytes */
	if (nl ? nl - s >= IMPORT_LINE_MAX : n > IMPORT_LINE_MAX)
		return TEXT_TOO_LONG;
	last = !nl;
	if (last)
		nl = s + n;	/* the file's last line, without '\n' */
	c->line_off = c->off + c->pos;
	*line = s;
	/* before the line's NUL is written: it is no NUL of the input */
	c->plain = next_special(c) >= (size_t)(nl - c->buf);
	/* the parsers would stop there and lose the rest without a word;
	 * a last line without '\n' is a cut capture (a tail of zeros after
	 * a crash), which the caller skips when it does not parse */
	if (!c->plain && !last && c->nul < (size_t)(nl - c->buf))
		return TEXT_NUL;
	*nl = 0;
	cut = nl;
	if (!c->plain) {
		cut = strchrnul(s, '\r');
		*cut = 0;
		c->plain = !strstr(s, ": CPU:");
	}
	c->pos += (size_t)(nl - s) + (nl < c->buf + c->len);
	c->line_end = c->off + c->pos;
	return cut - s;
}

/* Read chunk @k into @c: the bytes from the one before it (to find its
 * first line) to its end. */
static int chunk_read(struct text_par *tp, struct text_chunk *c, uint64_t k)
{
	uint64_t start = k * tp->chunk, end = start + tp->chunk;
	ssize_t got;
	char *nl;

	if (end > tp->size)
		end = tp->size;
	c->k = k;
	c->off = start ? start - 1 : 0;
	c->len = c->pos = c->first = 0;
	c->stop = (size_t)(end - c->off);
	c->lines = 0;
	c->status = TEXT_CHUNK_OK;
	c->skipped = 0;
	c->eof = end == tp->size;
	c->fresh = true;
	got = read_at(tp->fd, c->buf, c->stop, c->off);
	if (got < 0)
		return -1;
	c->len = (size_t)got;
	c->eof |= (size_t)got < c->stop;
	if (start) {
		nl = memchr(c->buf, '\n', c->len);
		c->first = nl ? (size_t)(nl - c->buf) + 1 : c->len;
	}
	c->pos = c->first;
	return 0;
}

bool text_chunk_at_end(const struct text_chunk *c)
{
	return c->line_end >= c->par->size;
}

int text_chunk_lines(struct text_chunk *c, text_line_fn fn, void *ctx,
		     bool (*full)(void *ctx), struct idl_err *err)
{
	struct text_par *tp = c->par;
	uint64_t at;
	char *line;
	long n;
	int r;

	while (!(full && full(ctx))) {
		at = c->off + c->pos;
		n = chunk_next(c, tp->fd, &line);
		if (n == TEXT_END)
			return 0;
		c->lines++;
		c->bad_line = c->lines;
		c->bad_off = at;
		if (n == TEXT_READ_ERROR) {
			c->bad_line = 0;
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "%s: read error: %s", tp->path,
					   strerror(errno));
		}
		if (n == TEXT_TOO_LONG)
			return idl_err_at_line(err, tp->path,
					       c->base + c->lines,
					       "line too long (more than %d "
					       "bytes)", IMPORT_LINE_MAX);
		if (n == TEXT_NUL)
			return idl_err_at_line(err, tp->path,
					       c->base + c->lines,
					       NUL_IN_LINE);
		r = fn(ctx, c->base + c->lines, line, (size_t)n, c->plain, err);
		/* A bad last line is a capture cut mid-event (a truncated
		 * file), not a malformed event: skip it. */
		if (r && err->status == IDL_EXIT_BADINPUT &&
		    text_chunk_at_end(c)) {
			c->skipped = c->lines;
			c->skipped_off = at;
			r = 0;
		}
		if (r)
			return r;
	}
	c->status = TEXT_CHUNK_FULL;
	return 0;
}

/* Parse chunk @k (in its slot) with the caller's line function. */
static void chunk_parse(struct text_par *tp, uint64_t k)
{
	struct text_chunk *c = &tp->slot[k % TEXT_SLOTS];

	c->base = 0;
	tp->ops->reset(c->out);
	if (chunk_read(tp, c, k)) {
		c->bad_line = 0;
		idl_err_set(&c->err, IDL_EXIT_BADINPUT, "%s: read error: %s",
			    tp->path, strerror(errno));
		c->status = TEXT_CHUNK_ERROR;
		return;
	}
	if (text_chunk_lines(c, tp->ops->line, c->out, tp->ops->full,
			     &c->err))
		c->status = TEXT_CHUNK_ERROR;
}

int text_chunk_again(struct text_chunk *c, bool skipped, text_line_fn fn,
		     void *ctx, struct idl_err *err)
{
	struct text_par *tp = c->par;
	unsigned long lineno = c->base + (skipped ? c->skipped : c->bad_line);
	struct text_chunk one = { .par = tp };
	char *line;
	long n;
	int r = -1;

	one.off = skipped ? c->skipped_off : c->bad_off;
	if (!skipped && !c->bad_line) {	/* no line: a read error */
		*err = c->err;
		return -1;
	}
	one.cap = CHUNK_CAP(0);
	one.buf = calloc(1, one.cap + 1 + TEXT_SLACK);
	if (!one.buf)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	one.stop = 1;
	if (extend(&one, tp->fd, IMPORT_LINE_MAX + 1))
		n = TEXT_READ_ERROR;
	else
		n = chunk_next(&one, tp->fd, &line);
	if (n == TEXT_TOO_LONG)
		idl_err_at_line(err, tp->path, lineno,
				"line too long (more than %d bytes)",
				IMPORT_LINE_MAX);
	else if (n == TEXT_NUL)
		idl_err_at_line(err, tp->path, lineno, NUL_IN_LINE);
	else if (n < 0)
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: read error: %s",
			    tp->path, strerror(errno));
	else
		r = fn(ctx, lineno, line, (size_t)n, one.plain, err);
	free(one.buf);
	if (!r)		/* the file changed under us */
		idl_err_at_line(err, tp->path, lineno, "line changed while read");
	return -1;
}

int text_chunk_redo(struct text_chunk *c, text_line_fn fn, void *ctx,
		    struct idl_err *err)
{
	unsigned long base = c->base;

	if (chunk_read(c->par, c, c->k))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: read error: %s", c->par->path,
				   strerror(errno));
	c->base = base;
	return text_chunk_lines(c, fn, ctx, NULL, err);
}

/* Chunk @k, parsed, to the caller: -1 stops everything. */
static int chunk_take(struct text_par *tp, uint64_t k, struct idl_err *err)
{
	struct text_chunk *c = &tp->slot[k % TEXT_SLOTS];
	int r;

	c->base = tp->lines;
	r = tp->ops->take(tp->ctx, c, err);
	tp->lines += c->lines;
	return r;
}

/* The next chunk to parse, if a slot is free; under the lock. */
static bool chunk_issue(struct text_par *tp, uint64_t *k)
{
	if (tp->stop || tp->issued == tp->nr_chunks ||
	    tp->issued - tp->taken == TEXT_SLOTS)
		return false;
	*k = tp->issued++;
	tp->parsed[*k % TEXT_SLOTS] = false;
	return true;
}

/* Chunk @k is parsed: tell; returns with the lock held. */
static void parsed(struct text_par *tp, uint64_t k)
{
	pthread_mutex_lock(&tp->lock);
	tp->parsed[k % TEXT_SLOTS] = true;
	pthread_cond_broadcast(&tp->cond);
}

/* The second thread: parse chunks ahead while slots are free. */
static void *worker(void *arg)
{
	struct text_par *tp = arg;
	uint64_t k;

	pthread_mutex_lock(&tp->lock);
	for (;;) {
		if (chunk_issue(tp, &k)) {
			pthread_mutex_unlock(&tp->lock);
			chunk_parse(tp, k);
			parsed(tp, k);
			continue;
		}
		if (tp->stop || tp->issued == tp->nr_chunks)
			break;
		pthread_cond_wait(&tp->cond, &tp->lock);
	}
	pthread_mutex_unlock(&tp->lock);
	return NULL;
}

/* The caller's thread: take chunks in order, parse when none is ready. */
static int driver(struct text_par *tp, struct idl_err *err)
{
	uint64_t k;
	int r = 0;

	pthread_mutex_lock(&tp->lock);
	while (tp->taken < tp->nr_chunks) {
		if (tp->taken < tp->issued &&
		    tp->parsed[tp->taken % TEXT_SLOTS]) {
			pthread_mutex_unlock(&tp->lock);
			r = chunk_take(tp, tp->taken, err);
			pthread_mutex_lock(&tp->lock);
			if (r)
				break;
			tp->taken++;
			pthread_cond_broadcast(&tp->cond);
		} else if (chunk_issue(tp, &k)) {
			pthread_mutex_unlock(&tp->lock);
			chunk_parse(tp, k);
			parsed(tp, k);
		} else {
			pthread_cond_wait(&tp->cond, &tp->lock);
		}
	}
	tp->stop = true;
	pthread_cond_broadcast(&tp->cond);
	pthread_mutex_unlock(&tp->lock);
	return r;
}

static void par_free(struct text_par *tp)
{
	int i;

	for (i = 0; i < TEXT_SLOTS; i++) {
		free(tp->slot[i].buf);
		free(tp->slot[i].out);
	}
	if (tp->fd >= 0)
		close(tp->fd);
	free(tp);
}

static uint64_t chunk_bytes(void)
{
	const char *env = getenv("IDLELAB_IMPORT_CHUNK");
	long long n = env ? atoll(env) : 0;

	return n > 0 && n <= TEXT_CHUNK ? (uint64_t)n : TEXT_CHUNK;
}

static struct text_par *par_create(const char *path,
				   const struct text_ops *ops, void *ctx,
				   struct idl_err *err)
{
	struct text_par *tp = calloc(1, sizeof(*tp));
	struct stat st;
	int i;

	if (!tp)
		goto nomem;
	tp->fd = idl_input_open(path, 0, NULL, err);
	if (tp->fd < 0) {
		par_free(tp);
		return NULL;
	}
	if (!fstat(tp->fd, &st) && idl_input_kernel_file(tp->fd)) {
		/* chunks are cut by the file's size, which such files hide */
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: a file of the "
			    "kernel's, whose size is not told: copy it to a "
			    "file first (cat %s > trace.txt)", path, path);
		par_free(tp);
		return NULL;
	}
	if (fstat(tp->fd, &st)) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
			    strerror(errno));
		par_free(tp);
		return NULL;
	}
	tp->path = path;
	tp->ops = ops;
	tp->ctx = ctx;
	tp->size = (uint64_t)st.st_size;
	tp->chunk = chunk_bytes();
	tp->nr_chunks = (tp->size + tp->chunk - 1) / tp->chunk;
	for (i = 0; i < TEXT_SLOTS; i++) {
		tp->slot[i].par = tp;
		tp->slot[i].cap = CHUNK_CAP(tp->chunk);
		tp->slot[i].buf = calloc(1, tp->slot[i].cap + 1 + TEXT_SLACK);
		tp->slot[i].out = calloc(1, ops->out_size);
		if (!tp->slot[i].buf || !tp->slot[i].out)
			goto nomem_free;
		if (ops->init)
			ops->init(ctx, tp->slot[i].out);
	}
	posix_fadvise(tp->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return tp;
nomem_free:
	par_free(tp);
nomem:
	idl_err_set(err, IDL_EXIT_FAILURE, "%s: out of memory", path);
	return NULL;
}

int text_threads(const char *path)
{
	const char *env = getenv("IDLELAB_IMPORT_THREADS");
	struct stat st;

	if (env && *env)
		return atoi(env) >= 2 ? 2 : 1;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || stat(path, &st))
		return 1;
	return st.st_size >= TEXT_THREADED_MIN ? 2 : 1;
}

int text_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int r;

	if (pthread_attr_init(&attr))
		return -1;
	/* a small stack: imports run under tight address-space limits */
	r = pthread_attr_setstacksize(&attr, TEXT_THREAD_STACK) ||
	    pthread_create(th, &attr, fn, arg) ? -1 : 0;
	pthread_attr_destroy(&attr);
	return r;
}

int text_par_run(const char *path, const struct text_ops *ops, void *ctx,
		 struct idl_err *err)
{
	struct text_par *tp = par_create(path, ops, ctx, err);
	pthread_t th;
	bool threaded;
	int r;

	if (!tp)
		return -1;
	pthread_mutex_init(&tp->lock, NULL);
	pthread_cond_init(&tp->cond, NULL);
	threaded = text_threads(path) > 1 && tp->nr_chunks > 1 &&
		   !text_thread_start(&th, worker, tp);
	r = driver(tp, err);
	if (threaded)
		pthread_join(th, NULL);
	pthread_cond_destroy(&tp->cond);
	pthread_mutex_destroy(&tp->lock);
	par_free(tp);
	return r;
}
