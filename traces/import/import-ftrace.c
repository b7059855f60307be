// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ftrace "trace" and "trace_pipe" files (and idlelab record --raw),
 * read by the scan of import-text.c and the run of text-run.c.
 */
#include "config.h"

#include "import.h"

/* Last in IMPORTERS: whatever no other importer claims is taken as
 * ftrace text, whose files start with no fixed header. */
static bool detect(const unsigned char *head, size_t n)
{
	(void)head;
	(void)n;
	return true;
}

const struct importer importer_ftrace = {
	.name	= "ftrace",
	.desc	= "ftrace text",
	.detect	= detect,
	.scan	= import_text_scan,
	.run	= import_text_run,
};
