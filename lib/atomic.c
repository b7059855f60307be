// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <dirent.h>
#include <errno.h>
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

int idl_tmp_template(const char *path, char *tmp, size_t len)
{
	remove_stale(path);
	if (snprintf(tmp, len, "%s.tmp%ld.XXXXXX", path, (long)getpid()) >=
	    (int)len)
		return -1;
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
	if (fclose(f) || rename(tmp, path)) {
		e = errno;
		unlink(tmp);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s: write failed: %s", path, strerror(e));
	}
	return 0;
}
