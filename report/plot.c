// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SVG plots through gnuplot.  Each plot is one gnuplot script with its
 * data inline (a here-document datablock), run as a child process writing
 * SVG to a temporary file that the caller embeds.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
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

/* Feed @len bytes to @fd; a reader that quits early is not fatal. */
static void feed(int fd, const char *buf, size_t len)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;

	sigaction(SIGPIPE, &ign, &old);
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf += n;
		len -= (size_t)n;
	}
	sigaction(SIGPIPE, &old, NULL);
}

/*
 * gnuplot reads the script on its standard input; its warnings (an empty
 * y range, adjusted) go to a file of their own instead of the user's
 * terminal, and the last line is shown when the plot fails.
 */
static int run_gnuplot(struct plot *p)
{
	char err_path[] = "/tmp/idlelab-plot-err-XXXXXX", line[256] = "";
	int fds[2], status = -1, errfd = mkstemp(err_path);
	FILE *e;
	pid_t pid;

	if (errfd < 0 || pipe(fds)) {
		if (errfd >= 0) {
			close(errfd);
			unlink(err_path);
		}
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fds[0], 0);
		dup2(errfd, 2);
		close(fds[0]);
		close(fds[1]);
		close(errfd);
		execlp(p->gnuplot, p->gnuplot, (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	if (pid > 0) {
		feed(fds[1], p->buf, p->len);
		close(fds[1]);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	} else {
		close(fds[1]);
	}
	if (status && (e = fdopen(errfd, "r"))) {
		rewind(e);
		while (fgets(line, sizeof(line), e))
			;
		fclose(e);
		if (line[0])
			fprintf(stderr, "idlelab report: gnuplot: %s%s", line,
				strchr(line, '\n') ? "" : "\n");
	} else {
		close(errfd);
	}
	unlink(err_path);
	return status;
}

/* Run the script; on success the SVG text is returned (malloc'd). */
char *plot_end(struct plot *p)
{
	char *svg = NULL;
	FILE *in;
	long size;

	fclose(p->script);
	if (run_gnuplot(p) == 0 && (in = fopen(p->svg, "r"))) {
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
