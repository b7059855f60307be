// SPDX-License-Identifier: GPL-2.0-or-later
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"

int idl_write_atomic(const char *path,
		     int (*write_fn)(FILE *f, void *ctx, struct idl_err *err),
		     void *ctx, struct idl_err *err)
{
	char tmp[4096];
	mode_t um;
	FILE *f;
	int fd, e;

	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >=
	    (int)sizeof(tmp))
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
