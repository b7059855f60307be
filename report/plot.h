/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef IDLELAB_PLOT_H
#define IDLELAB_PLOT_H

#include <stdbool.h>
#include <stdio.h>

struct plot {
	FILE		*script;	/* write gnuplot commands and data here */
	char		*buf;
	size_t		len;
	char		svg[64];
	const char	*gnuplot;
};

int plot_begin(struct plot *p, const char *gnuplot, const char *title,
	       int width, int height);
char *plot_end(struct plot *p);		/* SVG text or NULL */
/* End the gnuplot process the plots share (after the last plot). */
void plot_close(void);
void plot_quote(FILE *f, const char *s);
bool plot_available(const char *gnuplot);

#endif /* IDLELAB_PLOT_H */
