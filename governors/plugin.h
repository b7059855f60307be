/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Governor plugins (governors/plugin.c): shared objects built against
 * idlelab/governor.h, loaded where a governor is named by a path.
 */
#ifndef IDLELAB_PLUGIN_H
#define IDLELAB_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <idlelab/governor.h>

#include "error.h"

/* Does the governor name of @len bytes name a plugin (a path)? */
bool idl_plugin_path(const char *name, size_t len);

/*
 * Load the plugin at @path (once; later calls return the same ops) and
 * register its governor under @path.  -1 with a message naming @path in
 * @err: cannot load, no idl_plugin, another ABI or structure sizes, no
 * select(), or a crash while loading.
 */
int idl_plugin_load(const char *path, const struct idl_governor_ops **ops,
		    struct idl_err *err);

bool idl_governor_is_plugin(const struct idl_governor_ops *ops);
/* The governor's own name in the plugin, and the plugin's origin text
 * (NULL if none); for built-ins, ops->name and NULL. */
const char *idl_plugin_name(const struct idl_governor_ops *ops);
const char *idl_plugin_origin(const struct idl_governor_ops *ops);

/* "  NAME (origin)" and one line per tunable (help, default, range). */
void idl_governor_describe(FILE *f, const struct idl_governor_ops *ops);

/*
 * In a process that runs plugins, load @ops's plugin for real (until
 * then its functions are stand-ins that must not be called); 0 for a
 * built-in.  -1 with @err set if it cannot be loaded or changed.
 */
int idl_plugin_activate(const struct idl_governor_ops *ops,
			struct idl_err *err);

/*
 * plugin-contain.c: the processes plugin code runs in.
 *
 * Run @fn in a child process (a process group of its own unless its
 * input is a terminal; the plugin's standard output is standard error)
 * and return its result; if it dies by a signal (a plugin crashed), or
 * a call bracketed by idl_plugin_call_begin()/end() takes more than
 * @timeout_s, say so naming @what and return 1.
 */
int idl_run_contained(const char *what, unsigned int timeout_s,
		      int (*fn)(void *ctx), void *ctx);
void idl_plugin_call_begin(void);
void idl_plugin_call_end(void);

/*
 * In a child that runs a plugin: a crash ends the process by its signal,
 * which the parent reports by name (a sanitizer's handler would turn it
 * into an ordinary exit status); plugins loaded from now on run here.
 */
void idl_contained_child_init(void);
bool idl_plugins_may_run_here(void);

/*
 * Also in such a child (of @parent): with @own_group, lead a process
 * group of its own; die with the parent; standard output becomes
 * standard error.  -1 on failure.  The parent ends what is left of the
 * group with idl_child_reap_group().
 */
int idl_child_contain(pid_t parent, bool own_group);
void idl_child_reap_group(pid_t pid);

/*
 * Run @fn(@ctx, wfd) in a contained child and read what it writes to
 * wfd into @buf (at most @cap bytes, *@len of them), until it ends; its
 * wait status in *@status.  1 if it did not end within @timeout_s (it
 * and its group are killed), -1 with @err set if it could not start.
 */
int idl_contained_answer(void (*fn)(void *ctx, int wfd), void *ctx,
			 unsigned int timeout_s, char *buf, size_t cap,
			 size_t *len, int *status, struct idl_err *err);

/*
 * A contained child that streams its results back through a pipe and
 * counts its progress in shared memory (replay's plugin columns).
 */
struct idl_contained {
	pid_t		pid;		/* also its process group */
	int		status;		/* once it has ended */
	bool		ended;
	int		fd;		/* read end of its stream */
	u64		*progress;	/* shared with it */
	char		*buf;		/* what it sent */
	size_t		len, cap;
};

/* What idl_contained_collect() says of a child that stopped advancing. */
#define IDL_CONTAINED_STALLED	"no progress"

/* Fork @c running @fn(@ctx, its progress counter, the stream's write
 * end); @fn should not return (the child exits 0 if it does).  Before
 * any thread exists.  -1 with @err set if it cannot start. */
int idl_contained_start(struct idl_contained *c,
			void (*fn)(void *ctx, u64 *progress, int wfd),
			void *ctx, struct idl_err *err);
/*
 * Read @c's stream to its end into c->buf, killing @c when its progress
 * stands still for @timeout_s; then reap it and its group (c->status).
 * NULL, or why the stream is incomplete: IDL_CONTAINED_STALLED, or that
 * it could not be read.
 */
const char *idl_contained_collect(struct idl_contained *c,
				  unsigned int timeout_s);
void idl_contained_release(struct idl_contained *c);
/* write(2) all of @buf; -1 on error */
int idl_write_all(int fd, const void *buf, size_t len);

#endif /* IDLELAB_PLUGIN_H */
