// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Governor plugins: shared objects that define idl_plugin (idlelab's
 * governor.h).  A plugin is registered under its path as the user wrote
 * it, so that two builds of one governor ("./teo-5.1.so", "./teo.so")
 * are two columns; its own name and origin are kept for listings.
 *
 * Loading runs the object's constructors (a kernel-source plugin
 * registers its governor there), and describing it reads its memory:
 * both happen in a child (plugin-contain.c), which sends a copy of what
 * the descriptor says.  The process that writes results registers that
 * copy with stand-ins for the functions; the plugin is loaded for real
 * (activated) only in the processes that run it.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <idlelab/governor.h>

#include "plugin.h"
#include "text.h"

/* plugins loaded by one run: `governor list` of a directory of builds;
 * the registry holds IDL_MAX_GOVERNORS with the built-in ones */
#define MAX_PLUGINS	48
/* loading and describing a plugin must end within this */
#define LOAD_TIMEOUT_S	10
#define NAME_LEN	64
#define TEXT_LEN	256

/* What a plugin's describing child sends: copies, not pointers. */
struct plugin_desc {
	char		name[NAME_LEN];
	char		origin[TEXT_LEN];
	char		kernel_version[NAME_LEN];
	unsigned int	rating;
	unsigned int	fns;		/* FN_* of the functions it has */
	u64		data_size;
	bool		needs_hindsight;
	int		nparams;
	struct {
		char		name[NAME_LEN];
		char		help[TEXT_LEN];
		long long	def, min, max;
	} param[IDL_GOV_MAX_PARAMS];
};

enum { FN_ENABLE = 1, FN_DISABLE = 2, FN_REFLECT = 4, FN_EXPLAIN = 8,
       FN_STATS = 16 };

struct plugin {
	char			*path;
	void			*handle;	/* where it may run */
	struct plugin_desc	desc;
	struct idl_gov_param	params[IDL_GOV_MAX_PARAMS + 1];
	struct idl_governor_ops	ops;	/* named by path */
};

static struct plugin plugins[MAX_PLUGINS];
static int nr_plugins;

bool idl_plugin_path(const char *name, size_t len)
{
	return memchr(name, '/', len) ||
	       (len > 3 && !memcmp(name + len - 3, ".so", 3));
}

/* Open @path and check its descriptor; 0, or -1 with @err set. */
static int open_plugin(const char *path, void **handle,
		       const struct idl_plugin **desc, struct idl_err *err)
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
	if (!h)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: cannot load: %s", path, dlerror());
	d = dlsym(h, "idl_plugin");
	if (!d || !d->ops) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: no idlelab governor "
			    "in it (no idl_plugin symbol; see "
			    "doc/plugins.md)", path);
		goto fail;
	}
	if (d->abi != IDL_GOVERNOR_ABI) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: built for governor "
			    "ABI %u, this idlelab has ABI %d: rebuild it",
			    path, d->abi, IDL_GOVERNOR_ABI);
		goto fail;
	}
	for (i = 0; i < 4; i++)
		if (d->sizes[i] != sizes[i]) {
			idl_err_set(err, IDL_EXIT_BADINPUT, "%s: built "
				    "against another idlelab/governor.h "
				    "(structure sizes differ): rebuild it",
				    path);
			goto fail;
		}
	if (!d->ops->name || !d->ops->select) {
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: its governor has no "
			    "name or no select()", path);
		goto fail;
	}
	*handle = h;
	*desc = d;
	return 0;
fail:
	dlclose(h);
	return -1;
}

/* Copy @s into @buf of @len; false if it does not fit. */
static bool copy_text(char *buf, size_t len, const char *s)
{
	size_t n = s ? strnlen(s, len) : 0;

	if (n == len)
		return false;
	memcpy(buf, s ? s : "", n);
	buf[n] = '\0';
	return true;
}

/* Text a plugin gives is shown as text from outside (lib/text.h). */
static void clean_desc(struct plugin_desc *pd)
{
	int i;

	idl_text_clean(pd->name);
	idl_text_clean(pd->origin);
	idl_text_clean(pd->kernel_version);
	for (i = 0; i < pd->nparams; i++) {
		idl_text_clean(pd->param[i].name);
		idl_text_clean(pd->param[i].help);
	}
}

/* In the describing child: the descriptor @d as plain data. */
static int describe(const char *path, const struct idl_plugin *d,
		    struct plugin_desc *pd, struct idl_err *err)
{
	const struct idl_governor_ops *ops = d->ops;
	const struct idl_gov_param *p = ops->params;
	int i;

	memset(pd, 0, sizeof(*pd));
	if (!copy_text(pd->name, NAME_LEN, ops->name) || !pd->name[0])
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: its "
				   "governor's name is empty or longer than "
				   "%d bytes", path, NAME_LEN - 1);
	copy_text(pd->origin, TEXT_LEN, d->origin);
	copy_text(pd->kernel_version, NAME_LEN, ops->kernel_version);
	pd->rating = ops->rating;
	pd->data_size = ops->data_size;
	pd->needs_hindsight = ops->needs_hindsight;
	pd->fns = (ops->enable ? FN_ENABLE : 0) |
		  (ops->disable ? FN_DISABLE : 0) |
		  (ops->reflect ? FN_REFLECT : 0) |
		  (ops->explain_state ? FN_EXPLAIN : 0) |
		  (ops->stats ? FN_STATS : 0);
	for (i = 0; p && p[i].name; i++) {
		if (i == IDL_GOV_MAX_PARAMS)
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: more "
					   "than %d tunables, or params[] "
					   "does not end with an entry whose "
					   "name is NULL", path,
					   IDL_GOV_MAX_PARAMS);
		if (!copy_text(pd->param[i].name, NAME_LEN, p[i].name) ||
		    !pd->param[i].name[0])
			return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: "
					   "tunable %d: its name is empty or "
					   "longer than %d bytes", path, i,
					   NAME_LEN - 1);
		copy_text(pd->param[i].help, TEXT_LEN, p[i].help);
		pd->param[i].def = p[i].def;
		pd->param[i].min = p[i].min;
		pd->param[i].max = p[i].max;
	}
	pd->nparams = i;
	clean_desc(pd);
	return 0;
}

/* The describing child: "D" and the description, or "E" and why not. */
static void describe_child(void *ctx, int wfd)
{
	static struct plugin_desc pd;
	static struct idl_err err;
	const char *path = ctx;
	const struct idl_plugin *d;
	void *h;

	if (open_plugin(path, &h, &d, &err) ||
	    describe(path, d, &pd, &err)) {
		if (idl_write_all(wfd, "E", 1) == 0)
			idl_write_all(wfd, err.msg, strlen(err.msg));
		_exit(1);
	}
	if (write(wfd, "D", 1) != 1 || write(wfd, &pd, sizeof(pd)) < 0)
		_exit(1);
	_exit(0);
}

/* Describe @path in a child of its own, within a time limit. */
static int probe(const char *path, struct plugin_desc *pd,
		 struct idl_err *err)
{
	static char buf[1 + sizeof(*pd) + 1024];
	int status, r;
	size_t len;

	r = idl_contained_answer(describe_child, (void *)path, LOAD_TIMEOUT_S,
				 buf, sizeof(buf) - 1, &len, &status, err);
	if (r < 0)
		return -1;
	if (r > 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: loading it did "
				   "not end within %d s (its constructors?); "
				   "killed", path, LOAD_TIMEOUT_S);
	if (WIFSIGNALED(status))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: crashed while "
				   "loading (%s)", path,
				   strsignal(WTERMSIG(status)));
	if (len && buf[0] == 'E') {
		buf[len] = '\0';
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s", buf + 1);
	}
	if (len != 1 + sizeof(*pd) || buf[0] != 'D')
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: the process "
				   "loading it ended without describing its "
				   "governor (exit status %d: exit() in a "
				   "constructor?)", path,
				   WIFEXITED(status) ? WEXITSTATUS(status) :
				   -1);
	memcpy(pd, buf + 1, sizeof(*pd));
	return 0;
}

/* Never called: a plugin's functions run only where it is activated. */
static int not_here_select(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, bool *stop_tick)
{
	(void)drv;
	(void)dev;
	(void)stop_tick;
	fprintf(stderr, "idlelab: internal error: a plugin called outside "
		"its process\n");
	abort();
}

static int not_here_enable(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev)
{
	bool stop;

	return not_here_select(drv, dev, &stop);
}

static void not_here_disable(struct cpuidle_driver *drv,
			     struct cpuidle_device *dev)
{
	not_here_enable(drv, dev);
}

static void not_here_reflect(struct cpuidle_device *dev, int index)
{
	(void)index;
	not_here_enable(NULL, dev);
}

static void not_here_explain(struct cpuidle_device *dev,
			     struct idl_explain *ex)
{
	(void)ex;
	not_here_enable(NULL, dev);
}

static void not_here_stats(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev, idl_stat_fn emit,
			   void *ctx)
{
	(void)emit;
	(void)ctx;
	not_here_enable(drv, dev);
}

/* The registered ops of a described plugin: its data, stand-ins for
 * its functions until it is activated. */
static void proxy_ops(struct plugin *p)
{
	const struct plugin_desc *d = &p->desc;
	struct idl_governor_ops *o = &p->ops;
	int i;

	memset(o, 0, sizeof(*o));
	o->name = p->path;
	o->rating = d->rating;
	o->kernel_version = d->kernel_version[0] ? d->kernel_version : NULL;
	o->data_size = (size_t)d->data_size;
	o->needs_hindsight = d->needs_hindsight;
	for (i = 0; i < d->nparams; i++) {
		p->params[i].name = d->param[i].name;
		p->params[i].help = d->param[i].help;
		p->params[i].def = d->param[i].def;
		p->params[i].min = d->param[i].min;
		p->params[i].max = d->param[i].max;
	}
	o->params = p->params;
	o->select = not_here_select;
	o->enable = d->fns & FN_ENABLE ? not_here_enable : NULL;
	o->disable = d->fns & FN_DISABLE ? not_here_disable : NULL;
	o->reflect = d->fns & FN_REFLECT ? not_here_reflect : NULL;
	o->explain_state = d->fns & FN_EXPLAIN ? not_here_explain : NULL;
	o->stats = d->fns & FN_STATS ? not_here_stats : NULL;
}

static struct plugin *plugin_of(const struct idl_governor_ops *ops)
{
	int i;

	for (i = 0; i < nr_plugins; i++)
		if (&plugins[i].ops == ops)
			return &plugins[i];
	return NULL;
}

int idl_plugin_activate(const struct idl_governor_ops *ops,
			struct idl_err *err)
{
	struct plugin *p = plugin_of(ops);
	const struct idl_governor_ops *real;
	const struct idl_plugin *d;
	struct plugin_desc now;

	if (!p || p->handle)
		return 0;
	if (open_plugin(p->path, &p->handle, &d, err))
		return -1;
	if (describe(p->path, d, &now, err))
		return -1;
	if (memcmp(&now, &p->desc, sizeof(now)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: changed since "
				   "it was loaded", p->path);
	real = d->ops;
	p->ops.select = real->select;
	p->ops.enable = real->enable;
	p->ops.disable = real->disable;
	p->ops.reflect = real->reflect;
	p->ops.explain_state = real->explain_state;
	p->ops.stats = real->stats;
	return 0;
}

int idl_plugin_load(const char *path, const struct idl_governor_ops **ops,
		    struct idl_err *err)
{
	struct plugin *p;
	int i;

	for (i = 0; i < nr_plugins; i++)
		if (!strcmp(plugins[i].path, path)) {
			*ops = &plugins[i].ops;
			return 0;
		}
	if (nr_plugins == MAX_PLUGINS)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: at most %d "
				   "plugins in one run", path, MAX_PLUGINS);
	p = &plugins[nr_plugins];
	memset(p, 0, sizeof(*p));
	if (probe(path, &p->desc, err))
		return -1;
	p->path = strdup(path);
	if (!p->path)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	proxy_ops(p);
	/* the registry is the public API's (governor.h): its own convention */
	if (idl_governor_register(&p->ops, err->msg, sizeof(err->msg))) {
		err->status = IDL_EXIT_BADINPUT;
		free(p->path);
		return -1;
	}
	nr_plugins++;
	*ops = &p->ops;
	/* in a process made to run plugins (decide's), run it here */
	return idl_plugins_may_run_here() ? idl_plugin_activate(*ops, err) : 0;
}

bool idl_governor_is_plugin(const struct idl_governor_ops *ops)
{
	return plugin_of(ops) != NULL;
}

const char *idl_plugin_name(const struct idl_governor_ops *ops)
{
	const struct plugin *p = plugin_of(ops);

	return p ? p->desc.name : ops->name;
}

const char *idl_plugin_origin(const struct idl_governor_ops *ops)
{
	const struct plugin *p = plugin_of(ops);

	return p && p->desc.origin[0] ? p->desc.origin : NULL;
}

void idl_governor_describe(FILE *f, const struct idl_governor_ops *ops)
{
	const struct idl_gov_param *p;
	const char *origin = idl_plugin_origin(ops);
	char path[4096];

	if (idl_governor_is_plugin(ops)) {
		snprintf(path, sizeof(path), "%s", ops->name);
		idl_text_clean(path);
		fprintf(f, "  %s (plugin: governor \"%s\"%s%s)\n", path,
			idl_plugin_name(ops), origin ? ", " : "",
			origin ? origin : "");
	}
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
