// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Governor plugins: shared objects that define idl_plugin (idlelab's
 * governor.h).  A plugin is registered under its path as the user wrote
 * it, so that two builds of one governor ("./teo-5.1.so", "./teo.so")
 * are two columns; its own name and origin are kept for listings.
 *
 * Loading runs the object's constructors (a kernel-source plugin
 * registers its governor there): it is tried first in a child process,
 * so that a plugin that crashes while loading is an error, not a crash.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <idlelab/governor.h>

#include "plugin.h"

/* plugins loaded by one run: `governor list` of a directory of builds;
 * the registry holds IDL_MAX_GOVERNORS with the built-in ones */
#define MAX_PLUGINS	48

struct plugin {
	char			*path;
	void			*handle;
	const struct idl_plugin	*desc;
	struct idl_governor_ops	ops;	/* the plugin's, named by path */
};

void idl_contained_child_init(void)
{
	static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
	size_t i;

	for (i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++)
		signal(crash_signals[i], SIG_DFL);
}

static struct plugin plugins[MAX_PLUGINS];
static int nr_plugins;

bool idl_plugin_path(const char *name, size_t len)
{
	return memchr(name, '/', len) ||
	       (len > 3 && !memcmp(name + len - 3, ".so", 3));
}

/* Open @path and check its descriptor; 0, or -1 with @err set. */
static int open_plugin(const char *path, void **handle,
		       const struct idl_plugin **desc, char *err,
		       size_t errlen)
{
	static const unsigned int sizes[4] = IDL_PLUGIN_SIZES;
	const struct idl_plugin *d;
	char local[4096];
	void *h;
	int i;

	/* dlopen() looks a name without '/' up in the library path: a file
	 * named on the command line is in the current directory */
	snprintf(local, sizeof(local), "%s%s", strchr(path, '/') ? "" : "./",
		 path);
	h = dlopen(local, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s: cannot load: %s", path, dlerror());
		return -1;
	}
	d = dlsym(h, "idl_plugin");
	if (!d || !d->ops) {
		snprintf(err, errlen, "%s: no idlelab governor in it (no "
			 "idl_plugin symbol; see doc/plugins.md)", path);
		goto fail;
	}
	if (d->abi != IDL_GOVERNOR_ABI) {
		snprintf(err, errlen, "%s: built for governor ABI %u, this "
			 "idlelab has ABI %d: rebuild it", path, d->abi,
			 IDL_GOVERNOR_ABI);
		goto fail;
	}
	for (i = 0; i < 4; i++)
		if (d->sizes[i] != sizes[i]) {
			snprintf(err, errlen, "%s: built against another "
				 "idlelab/governor.h (structure sizes "
				 "differ): rebuild it", path);
			goto fail;
		}
	if (!d->ops->name || !d->ops->select) {
		snprintf(err, errlen, "%s: its governor has no name or no "
			 "select()", path);
		goto fail;
	}
	*handle = h;
	*desc = d;
	return 0;
fail:
	dlclose(h);
	return -1;
}

/* Load @path in a child first: a crash there is reported, not suffered. */
static int try_in_child(const char *path, char *err, size_t errlen)
{
	const struct idl_plugin *d;
	int fd[2], status;
	ssize_t n = 0;
	void *h;
	pid_t pid;

	if (pipe(fd)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		idl_contained_child_init();
		close(fd[0]);
		if (open_plugin(path, &h, &d, err, errlen)) {
			if (write(fd[1], err, strlen(err))) {
			}
			_exit(1);
		}
		_exit(0);
	}
	close(fd[1]);
	err[0] = '\0';
	while ((n = read(fd[0], err, errlen - 1)) < 0 && errno == EINTR)
		;
	err[n > 0 ? n : 0] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		snprintf(err, errlen, "%s: crashed while loading (%s)", path,
			 strsignal(WTERMSIG(status)));
		return -1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int idl_plugin_load(const char *path, const struct idl_governor_ops **ops,
		    char *err, size_t errlen)
{
	struct plugin *p;
	int i;

	for (i = 0; i < nr_plugins; i++)
		if (!strcmp(plugins[i].path, path)) {
			*ops = &plugins[i].ops;
			return 0;
		}
	if (nr_plugins == MAX_PLUGINS) {
		snprintf(err, errlen, "%s: at most %d plugins in one run",
			 path, MAX_PLUGINS);
		return -1;
	}
	if (try_in_child(path, err, errlen))
		return -1;
	p = &plugins[nr_plugins];
	if (open_plugin(path, &p->handle, &p->desc, err, errlen))
		return -1;
	p->path = strdup(path);
	if (!p->path) {
		dlclose(p->handle);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->ops = *p->desc->ops;
	p->ops.name = p->path;
	if (idl_governor_register(&p->ops, err, errlen)) {
		free(p->path);
		dlclose(p->handle);
		return -1;
	}
	nr_plugins++;
	*ops = &p->ops;
	return 0;
}

static const struct plugin *plugin_of(const struct idl_governor_ops *ops)
{
	int i;

	for (i = 0; i < nr_plugins; i++)
		if (&plugins[i].ops == ops)
			return &plugins[i];
	return NULL;
}

bool idl_governor_is_plugin(const struct idl_governor_ops *ops)
{
	return plugin_of(ops) != NULL;
}

const char *idl_plugin_name(const struct idl_governor_ops *ops)
{
	const struct plugin *p = plugin_of(ops);

	return p ? p->desc->ops->name : ops->name;
}

const char *idl_plugin_origin(const struct idl_governor_ops *ops)
{
	const struct plugin *p = plugin_of(ops);

	return p && p->desc->origin ? p->desc->origin : NULL;
}

int idl_run_contained(const char *what, int (*fn)(void *ctx), void *ctx)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return fn(ctx);	/* no process to spare: run it here */
	if (pid == 0) {
		idl_contained_child_init();
		status = fn(ctx);
		fflush(NULL);
		_exit(status);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "idlelab: %s crashed (%s)\n", what,
			strsignal(WTERMSIG(status)));
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

void idl_governor_describe(FILE *f, const struct idl_governor_ops *ops)
{
	const struct idl_gov_param *p;
	const char *origin = idl_plugin_origin(ops);

	if (idl_governor_is_plugin(ops))
		fprintf(f, "  %s (plugin: governor \"%s\"%s%s)\n", ops->name,
			idl_plugin_name(ops), origin ? ", " : "",
			origin ? origin : "");
	else if (ops->kernel_version)
		fprintf(f, "  %s (built in, follows Linux %s)\n", ops->name,
			ops->kernel_version);
	else if (ops->needs_hindsight)
		fprintf(f, "  %s (built in, hindsight: not a kernel governor)\n",
			ops->name);
	else
		fprintf(f, "  %s (built in)\n", ops->name);
	for (p = ops->params; p && p->name; p++)
		fprintf(f, "      %-28s %s (%lld, %lld..%lld)\n", p->name,
			p->help ? p->help : "", p->def, p->min, p->max);
}
