/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building a kernel cpuidle governor source file, unchanged, into an
 * idlelab plugin (governors/kbuild.c, governors/kcompat/).
 */
#ifndef IDLELAB_KBUILD_H
#define IDLELAB_KBUILD_H

#include <stdbool.h>

#include "error.h"

struct kbuild_opts {
	const char	*src;		/* the governor's .c file */
	const char	*out;		/* the plugin to write */
	const char	*cc;		/* NULL: $CC, else cc */
	const char	*kernel;	/* "X.Y" whose rules apply; NULL: detect */
	bool		verbose;	/* print the commands */
};

/*
 * Compile @o->src with the kernel compatibility layer into @o->out
 * (written only when complete) and check that it loads as a governor.
 * Says on stdout which kernel's rules were applied.  -1 with @err set:
 * a compiler error (its messages are already on stderr; status 2), no
 * compatibility layer found (1), or a file that registers no governor.
 */
int kbuild(const struct kbuild_opts *o, struct idl_err *err);

/* KERNEL_VERSION(a, b, c) */
#define KV(a, b, c)	(((a) << 16) + ((b) << 8) + (c))
/* The oldest kernel whose rules are known (doc/plugins.md) */
#define KBUILD_OLDEST	KV(5u, 1u, 0u)
/* Beyond the newest series there is (7.x in 2026), a version is a typo:
 * a newer one than the layer knows is built with the latest rules */
#define KBUILD_NEWEST	KV(7u, 255u, 0u)

/* "5.10" -> KERNEL_VERSION(5, 10, 0); 0 when malformed. */
unsigned int kbuild_version(const char *s);

/* The rules a source follows, judged from what it uses (see kbuild.c). */
unsigned int kbuild_detect(const char *text);

#endif /* IDLELAB_KBUILD_H */
