// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SVG plots through gnuplot.  Each plot is one gnuplot script with its
 * data inline (a here-document datablock) writing SVG to a temporary file
 * that the caller embeds.  One gnuplot process runs the scripts one after
 * the other (starting gnuplot costs ~40 ms, more than most plots), each
 * from a reset session, and says when a plot's file is complete; if it
 * ends (an error in a script ends a gnuplot that reads a pipe), the next
 * plot starts another.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fcntl.h>
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
		"reset session\nset print '-'\n"
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

/* Feed @len bytes to @fd; false if the reader is gone. */
static bool feed(int fd, const char *buf, size_t len)
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
	return len == 0;
}

#define DONE_MARK	"idlelab-plot-done"

/* The gnuplot that runs every plot of this process, while it lives. */
static struct {
	pid_t		pid;
	int		in;		/* its script */
	FILE		*out;		/* its answers */
	int		errfd;		/* its messages */
	char		err_path[32];
	const char	*gnuplot;
} gp = { .pid = -1, .in = -1, .errfd = -1 };

/*
 * gnuplot reads the scripts on its standard input and prints the mark on
 * its standard output after each; its warnings (an empty y range,
 * adjusted) go to a file of their own instead of the user's terminal,
 * and the last line is shown when a plot fails.
 */
static int start_gnuplot(const char *gnuplot)
{
	int in[2], out[2];

	snprintf(gp.err_path, sizeof(gp.err_path), "/tmp/idlelab-plot-err-XXXXXX");
	gp.errfd = mkstemp(gp.err_path);
	if (gp.errfd < 0)
		return -1;
	if (pipe(in)) {
		close(gp.errfd);
		unlink(gp.err_path);
		return -1;
	}
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		close(gp.errfd);
		unlink(gp.err_path);
		return -1;
	}
	fflush(NULL);
	gp.pid = fork();
	if (gp.pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(gp.errfd, 2);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		close(gp.errfd);
		execlp(gnuplot, gnuplot, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	gp.in = in[1];
	gp.out = fdopen(out[0], "r");
	gp.gnuplot = gnuplot;
	if (gp.pid < 0 || !gp.out) {
		plot_close();
		return -1;
	}
	return 0;
}

/* Say gnuplot's last message, as the reason of a failed plot. */
static void say_last_message(void)
{
	char line[256] = "";
	FILE *e = fdopen(dup(gp.errfd), "r");

	if (!e)
		return;
	rewind(e);
	while (fgets(line, sizeof(line), e))
		;
	fclose(e);
	if (line[0])
		fprintf(stderr, "idlelab report: gnuplot: %s%s", line,
			strchr(line, '\n') ? "" : "\n");
}

void plot_close(void)
{
	if (gp.in >= 0)
		close(gp.in);
	if (gp.out)
		fclose(gp.out);
	if (gp.pid > 0)
		while (waitpid(gp.pid, NULL, 0) < 0 && errno == EINTR)
			;
	if (gp.errfd >= 0) {
		close(gp.errfd);
		unlink(gp.err_path);
	}
	gp.pid = -1;
	gp.in = gp.errfd = -1;
	gp.out = NULL;
}

/* Run @p's script; 0 once its SVG file is complete. */
static int run_gnuplot(struct plot *p)
{
	static const char tail[] = "\nunset output\nprint '" DONE_MARK "'\n";
	char line[256];

	if (gp.pid > 0 && strcmp(gp.gnuplot, p->gnuplot))
		plot_close();
	if (gp.pid <= 0 && start_gnuplot(p->gnuplot))
		return -1;
	/* only the messages of this plot are shown */
	if (ftruncate(gp.errfd, 0) == 0)
		lseek(gp.errfd, 0, SEEK_SET);
	if (feed(gp.in, p->buf, p->len) && feed(gp.in, tail, sizeof(tail) - 1))
		while (fgets(line, sizeof(line), gp.out))
			if (!strcmp(line, DONE_MARK "\n"))
				return 0;
	/* it ended: an error in this script */
	say_last_message();
	plot_close();
	return -1;
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
