// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inputs: regular files only, a size limit and a line cap (input.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "input.h"

/* MiB or KiB, whichever is whole, for messages. */
static void size_text(uint64_t n, char *buf, size_t len)
{
	if (n >= (1u << 20) && !(n % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 " MiB", n >> 20);
	else if (n >= 1024 && !(n % 1024))
		snprintf(buf, len, "%" PRIu64 " KiB", n >> 10);
	else
		snprintf(buf, len, "%" PRIu64 " bytes", n);
}

static int check_file(int fd, const char *path, uint64_t max_size,
		      const char *what, struct idl_err *err)
{
	char lim[32];
	struct stat st;

	if (fstat(fd, &st))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   strerror(errno));
	if (!S_ISREG(st.st_mode))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: not a regular file", path);
	if (!max_size || (uint64_t)st.st_size <= max_size)
		return 0;
	size_text(max_size, lim, sizeof(lim));
	return idl_err_set(err, IDL_EXIT_BADINPUT,
			   "%s: %" PRIu64 " bytes, too large for %s (at most "
			   "%s)", path, (uint64_t)st.st_size, what, lim);
}

bool idl_input_kernel_file(int fd)
{
	struct statfs sf;

	if (fstatfs(fd, &sf))
		return false;
	switch ((unsigned long)sf.f_type) {
	case 0x9fa0:		/* PROC_SUPER_MAGIC */
	case 0x62656572:	/* SYSFS_MAGIC */
	case 0x74726163:	/* TRACEFS_MAGIC */
	case 0x64626720:	/* DEBUGFS_MAGIC */
		return true;
	}
	return false;
}

int idl_input_open(const char *path, uint64_t max_size, const char *what,
		   struct idl_err *err)
{
	const char *base = strrchr(path, '/');
	/* O_NONBLOCK: a FIFO without a writer would block open() */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   strerror(errno));
	if (check_file(fd, path, max_size, what, err)) {
		close(fd);
		return -1;
	}
	if (idl_input_kernel_file(fd)) {
		/* trace_pipe, trace_pipe_raw: they wait for the next event */
		base = base ? base + 1 : path;
		if (!strncmp(base, "trace_pipe", 10)) {
			close(fd);
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: a "
					   "stream of events that does not "
					   "end: give the trace file, or use "
					   "idlelab record", path);
		}
		/* the rest stays non-blocking: a read that would wait
		 * fails instead */
		return fd;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
			    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* jansson reads through this: it counts line lengths to enforce the cap */
struct capped_reader {
	FILE	*f;
	size_t	line_len;
	bool	too_long;
};

static size_t capped_read(void *buf, size_t len, void *data)
{
	struct capped_reader *r = data;
	size_t n = fread(buf, 1, len, r->f), i;

	for (i = 0; i < n; i++) {
		r->line_len = ((char *)buf)[i] == '\n' ? 0 : r->line_len + 1;
		if (r->line_len > IDL_RESULTS_MAX_LINE) {
			r->too_long = true;
			return (size_t)-1;
		}
	}
	return n;
}

json_t *idl_json_loadf(FILE *f, const char *path, struct idl_err *err)
{
	struct capped_reader r = { f, 0, false };
	json_error_t jerr;
	json_t *root;

	root = json_load_callback(capped_read, &r, JSON_REJECT_DUPLICATES,
				  &jerr);
	if (r.too_long)
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s:%d: line too long "
			    "(more than %u bytes)", path, jerr.line,
			    IDL_RESULTS_MAX_LINE);
	else if (!root && jerr.line < 1)	/* not a syntax error */
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
			    jerr.text);
	else if (!root)
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s:%d: %s", path,
			    jerr.line, jerr.text);
	return root;
}

/* ------------------------------------------------------------- arena */

#define ARENA_CHUNK	(32u << 20)
#define ARENA_ALIGN	16u

struct arena_chunk {
	struct arena_chunk	*next;
	size_t			size, used;
};

static struct arena_chunk *arena;

static struct arena_chunk *arena_chunk(size_t size)
{
	struct arena_chunk *c = mmap(NULL, size, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (c == MAP_FAILED)
		return NULL;
	/* fewer page faults: they were a quarter of the loading time */
	madvise(c, size, MADV_HUGEPAGE);
	c->size = size;
	c->used = (sizeof(*c) + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	return c;
}

static void *arena_malloc(size_t n)
{
	struct arena_chunk *c;
	void *p;

	n = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (n > ARENA_CHUNK / 4) {
		/* a chunk of its own, behind the one being filled */
		c = arena_chunk(n + 64);
		if (!c)
			return NULL;
		c->next = arena ? arena->next : NULL;
		if (arena)
			arena->next = c;
		else
			arena = c;
		p = (char *)c + c->used;
		c->used = c->size;
		return p;
	}
	if (!arena || arena->used + n > arena->size) {
		c = arena_chunk(ARENA_CHUNK);
		if (!c)
			return NULL;
		c->next = arena;
		arena = c;
	}
	p = (char *)arena + arena->used;
	arena->used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;	/* all at once, in idl_json_arena_end() */
}

void idl_json_arena_begin(void)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
}

void idl_json_arena_end(void)
{
	struct arena_chunk *c;

	json_set_alloc_funcs(malloc, free);
	while ((c = arena)) {
		arena = c->next;
		munmap(c, c->size);
	}
}

json_t *idl_json_load(const char *path, struct idl_err *err)
{
	FILE *f = idl_input_fopen(path, IDL_RESULTS_MAX_SIZE,
				  "a results file", err);
	json_t *root;

	if (!f)
		return NULL;
	root = idl_json_loadf(f, path, err);
	fclose(f);
	return root;
}

FILE *idl_input_fopen(const char *path, uint64_t max_size, const char *what,
		      struct idl_err *err)
{
	int fd;
	FILE *f;

	fd = idl_input_open(path, max_size, what, err);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
			    strerror(errno));
		close(fd);
	}
	return f;
}

int idl_lines_init(struct idl_lines *l, FILE *f, const char *path,
		   size_t max, struct idl_err *err)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->path = path;
	l->max = max;
	l->buf = malloc(max + 2);
	if (!l->buf)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	return 0;
}

int idl_lines_next(struct idl_lines *l, struct idl_err *err)
{
	size_t n = 0;
	int c;

	l->off = l->next;
	while ((c = getc_unlocked(l->f)) != EOF && c != '\n') {
		if (n == l->max)
			return idl_err_at_line(err, l->path, l->no + 1,
					       "line too long (more than %zu "
					       "bytes)", l->max);
		if (!c)
			return idl_err_at_line(err, l->path, l->no + 1,
					       "NUL byte in line");
		l->buf[n++] = (char)c;
	}
	if (ferror(l->f))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: read error: %s", l->path,
				   strerror(errno ? errno : EIO));
	if (c == EOF && !n)
		return 0;
	l->next += n + (c == '\n');
	if (n && l->buf[n - 1] == '\r')
		n--;
	l->buf[n] = '\0';
	l->len = n;
	l->no++;
	return 1;
}

void idl_lines_free(struct idl_lines *l)
{
	free(l->buf);
	l->buf = NULL;
}
