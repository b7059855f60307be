// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"

/* Temporary files of the forms before the pid was in the name. */
#define OLD_TMP_AGE_S	3600

static bool all_alnum(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')))
			return false;
	return !s[n];
}

bool idl_tmp_stale(const char *rest, time_t mtime)
{
	char *end;
	long pid;

	pid = strtol(rest, &end, 10);
	if (end != rest && *end == '.' && all_alnum(end + 1, 6))
		return pid > 0 && kill((pid_t)pid, 0) && errno == ESRCH;
	if (*rest == '-')
		rest++;
	return all_alnum(rest, 6) && mtime < time(NULL) - OLD_TMP_AGE_S;
}

/* @rest follows "BASE.tmp": is it a temporary file nobody writes? */
static bool stale(const char *dir, const char *name, const char *rest)
{
	char p[4400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (lstat(p, &st) || !S_ISREG(st.st_mode))
		return false;
	return idl_tmp_stale(rest, st.st_mtime);
}

static void remove_stale(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/'), *base;
	size_t blen;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? (slash == path ? "/" : path) : ".");
	base = slash ? slash + 1 : path;
	blen = strlen(base);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char p[4400];

		if (strncmp(de->d_name, base, blen) ||
		    strncmp(de->d_name + blen, ".tmp", 4) ||
		    !stale(dir, de->d_name, de->d_name + blen + 4))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
}

/*
 * What writing @path means: replace a regular file (@real: the file
 * itself, through a symlink), or write into a character device or FIFO
 * (*@stream).  Anything else is refused: a directory, a block device, a
 * socket, a symlink to nothing.
 */
static int out_target(const char *path, char *real, size_t len,
		      bool *stream, struct idl_err *err)
{
	struct stat st;

	*stream = false;
	if (lstat(path, &st)) {		/* nothing there yet, or unreadable */
		snprintf(real, len, "%s", path);
		return 0;
	}
	if (S_ISLNK(st.st_mode) && stat(path, &st))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: a symbolic "
				   "link to nothing (%s): name the file "
				   "itself", path, strerror(errno));
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*stream = true;
		snprintf(real, len, "%s", path);
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: is a directory, not a file", path);
	if (!S_ISREG(st.st_mode))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: neither a "
				   "regular file, a character device nor a "
				   "FIFO: not replaced", path);
	if (!realpath(path, real) && strlen(path) < len)
		snprintf(real, len, "%s", path);
	return 0;
}

int idl_out_check(const char *path, struct idl_err *err)
{
	char real[PATH_MAX];
	bool stream;

	return out_target(path, real, sizeof(real), &stream, err);
}

bool idl_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

FILE *idl_summary_stream(const char *out)
{
	return out && idl_same_file(out, "/proc/self/fd/1") ? stderr : stdout;
}

int idl_tmp_template(const char *path, char *tmp, size_t len)
{
	char real[PATH_MAX], base[PATH_MAX];
	const char *dir;
	bool stream;

	if (out_target(path, real, sizeof(real), &stream, NULL))
		return -1;
	if (stream) {	/* the whole output first, then into the device */
		dir = getenv("TMPDIR");
		snprintf(base, sizeof(base), "%s/idlelab-out",
			 dir && *dir ? dir : "/tmp");
		path = base;
	} else {
		path = real;
	}
	remove_stale(path);
	if (snprintf(tmp, len, "%s.tmp%ld.XXXXXX", path, (long)getpid()) >=
	    (int)len)
		return -1;
	return 0;
}

/* Copy the finished temporary file @tmp into the device or FIFO @path. */
static int stream_into(const char *tmp, const char *path)
{
	char buf[65536];
	ssize_t n, w, off;
	int in, out, e = 0;

	in = open(tmp, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (out < 0) {
		e = errno;
		close(in);
		errno = e;
		return -1;
	}
	while (!e && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				e = errno;
			continue;
		}
		for (off = 0; off < n && !e; off += w) {
			w = write(out, buf + off, (size_t)(n - off));
			if (w < 0) {
				w = 0;
				if (errno != EINTR)
					e = errno;
			}
		}
	}
	close(in);
	if (close(out) && !e)
		e = errno;
	errno = e;
	return e ? -1 : 0;
}

int idl_commit(const char *tmp, const char *path, struct idl_err *err)
{
	char real[PATH_MAX];
	bool stream;
	int ret, e;

	if (out_target(path, real, sizeof(real), &stream, err)) {
		unlink(tmp);
		return -1;
	}
	ret = stream ? stream_into(tmp, path) : rename(tmp, real);
	e = errno;
	if (stream || ret)
		unlink(tmp);
	if (ret)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: write failed: "
				   "%s", path, strerror(e));
	return 0;
}

int idl_write_atomic(const char *path,
		     int (*write_fn)(FILE *f, void *ctx, struct idl_err *err),
		     void *ctx, struct idl_err *err)
{
	char tmp[4096];
	mode_t um;
	FILE *f;
	int fd, e;

	if (idl_out_check(path, err))
		return -1;
	if (idl_tmp_template(path, tmp, sizeof(tmp)))
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: path too long",
				   path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
				   strerror(errno));
	um = umask(0);		/* mkstemp makes it 0600: use the umask */
	umask(um);
	fchmod(fd, 0666 & ~um);
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		unlink(tmp);
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", path,
				   strerror(e));
	}
	if (err)
		err->msg[0] = '\0';
	errno = 0;
	if (write_fn(f, ctx, err) || fflush(f) || ferror(f) ||
	    fsync(fd)) {
		e = errno ? errno : EIO;
		fclose(f);
		unlink(tmp);
		if (err && err->msg[0])
			return -1;
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: write failed: %s", path, strerror(e));
	}
	if (fclose(f)) {
		e = errno;
		unlink(tmp);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: write failed: %s", path, strerror(e));
	}
	return idl_commit(tmp, path, err);
}
