// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inputs: regular files only, a size limit and a line cap (input.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

int idl_input_open(const char *path, uint64_t max_size, const char *what,
		   struct idl_err *err)
{
	/* O_NONBLOCK: a FIFO without a writer would block open() */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", path,
				   strerror(errno));
	if (check_file(fd, path, max_size, what, err)) {
		close(fd);
		return -1;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
			    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
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
