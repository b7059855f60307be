// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SVG plots through gnuplot.  Each plot is one gnuplot script with its
 * data inline (a here-document datablock), run as a child process writing
 * SVG to a temporary file that the caller embeds.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

int plot_begin(struct plot *p, const char *gnuplot, const char *title,
	       int width, int height)
{
	char tmpl[] = "/tmp/idlelab-plot-XXXXXX";
	int fd;

	memset(p, 0, sizeof(*p));
	fd = mkstemp(tmpl);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(p->svg, sizeof(p->svg), "%s", tmpl);
	p->script = open_memstream(&p->buf, &p->len);
	if (!p->script) {
		unlink(p->svg);
		return -1;
	}
	p->gnuplot = gnuplot ? gnuplot : "gnuplot";
	fprintf(p->script,
		"set terminal svg size %d,%d dynamic enhanced font 'sans,11' background '#ffffff'\n"
		"set output '%s'\n"
		"set grid ytics lc rgb '#dddddd'\n"
		"set border 3\nset tics nomirror\n"
		"set key outside right top noenhanced\n"
		"set title \"",
		width, height, p->svg);
	plot_quote(p->script, title);
	fputs("\" noenhanced\n", p->script);
	return 0;
}

/* Run the script; on success the SVG text is returned (malloc'd). */
char *plot_end(struct plot *p)
{
	char *svg = NULL;
	FILE *gp, *in;
	long size;
	int status;

	fclose(p->script);
	gp = popen(p->gnuplot, "w");
	if (gp) {
		fwrite(p->buf, 1, p->len, gp);
		status = pclose(gp);
		if (status == 0 && (in = fopen(p->svg, "r"))) {
			fseek(in, 0, SEEK_END);
			size = ftell(in);
			rewind(in);
			svg = size > 0 ? malloc(size + 1) : NULL;
			if (svg && fread(svg, 1, size, in) == (size_t)size) {
				svg[size] = '\0';
			} else {
				free(svg);
				svg = NULL;
			}
			fclose(in);
		}
	}
	free(p->buf);
	unlink(p->svg);
	return svg;
}

/*
 * Text from a results file inside a gnuplot string or data line: drop what
 * could end the string or the line, and what gnuplot would expand even
 * inside double quotes (`command` substitution, @macros) -- a results file
 * must not be able to run anything.
 */
void plot_quote(FILE *f, const char *s)
{
	for (; *s; s++)
		if (!strchr("\"'`@\\\n\r", *s))
			fputc(*s, f);
}

bool plot_available(const char *gnuplot)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s --version >/dev/null 2>&1",
		 gnuplot ? gnuplot : "gnuplot");
	return system(cmd) == 0;
}
