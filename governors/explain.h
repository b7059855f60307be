/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An explain sink: where a governor's --explain lines go.  The caller
 * (decide, replay) owns one and points dev->explain at it for the calls
 * it wants explained; gov_explain() is a no-op while dev->explain is NULL.
 */
#ifndef IDLELAB_EXPLAIN_H
#define IDLELAB_EXPLAIN_H

#include <stdio.h>

#include <idlelab/governor.h>

struct idl_explain {
	FILE		*out;		/* e.g. stderr */
	const char	*prefix;	/* before every line; may be NULL */
};

static inline void idl_explain_init(struct idl_explain *ex, FILE *out,
				    const char *prefix)
{
	ex->out = out;
	ex->prefix = prefix;
}

#endif /* IDLELAB_EXPLAIN_H */
