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

#include <idlelab/governor.h>

/* Does the governor name of @len bytes name a plugin (a path)? */
bool idl_plugin_path(const char *name, size_t len);

/*
 * Load the plugin at @path (once; later calls return the same ops) and
 * register its governor under @path.  -1 with a message naming @path in
 * @err: cannot load, no idl_plugin, another ABI or structure sizes, no
 * select(), or a crash while loading.
 */
int idl_plugin_load(const char *path, const struct idl_governor_ops **ops,
		    char *err, size_t errlen);

bool idl_governor_is_plugin(const struct idl_governor_ops *ops);
/* The governor's own name in the plugin, and the plugin's origin text
 * (NULL if none); for built-ins, ops->name and NULL. */
const char *idl_plugin_name(const struct idl_governor_ops *ops);
const char *idl_plugin_origin(const struct idl_governor_ops *ops);

/* "  NAME (origin)" and one line per tunable (help, default, range). */
void idl_governor_describe(FILE *f, const struct idl_governor_ops *ops);

/*
 * Run @fn in a child process and return its result; if it dies by a
 * signal (a plugin crashed), say so naming @what and return 1.
 */
int idl_run_contained(const char *what, int (*fn)(void *ctx), void *ctx);

/*
 * In a child that runs a plugin: a crash ends the process by its signal,
 * which the parent reports by name (a sanitizer's handler would turn it
 * into an ordinary exit status).
 */
void idl_contained_child_init(void);

#endif /* IDLELAB_PLUGIN_H */
