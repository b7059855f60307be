// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text of "trace-cmd report", read as the ftrace text is: the scan of
 * import-text.c and the run of text-run.c.
 */
#include "config.h"

#include <string.h>

#include "import.h"

/* trace-cmd report starts with its "version = N" line, or with
 * "cpus=N" when told not to print the version. */
static bool detect(const unsigned char *head, size_t n)
{
	return (n >= 10 && !memcmp(head, "version = ", 10)) ||
	       (n >= 5 && !memcmp(head, "cpus=", 5));
}

const struct importer importer_report = {
	.name	= "report",
	.desc	= "trace-cmd report text",
	.detect	= detect,
	.scan	= import_text_scan,
	.run	= import_text_run,
};
