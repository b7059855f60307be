// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab governor build: a kernel governor source file, unchanged,
 * compiled with the kernel compatibility layer (governors/kcompat/) into
 * a plugin.  Three objects are linked into the shared object: the
 * governor file and glue-kernel.c, both with idlelab-kcompat.h forced in
 * (the kernel's structures), and glue-idlelab.c against idlelab's own
 * header (the plugin descriptor).  Only idl_plugin is exported.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic.h"
#include "host.h"
#include "input.h"
#include "kbuild.h"
#include "lib/paths.h"
#include "number.h"
#include "plugin.h"

/* Limits of each compiler run (limit_child()) and of the source. */
#define KBUILD_CC_MEM	(2048L << 20)	/* address space, bytes */
#define KBUILD_CC_SECS	300		/* CPU and wall-clock seconds */
#define KBUILD_SRC_MAX	(16u << 20)	/* a governor file is ~30 KiB */

unsigned int kbuild_version(const char *s)
{
	const char *dot = strchr(s, '.');
	long long a, b;
	char major[8];

	if (!dot || dot - s >= (long)sizeof(major))
		return 0;
	memcpy(major, s, (size_t)(dot - s));
	major[dot - s] = '\0';
	if (idl_parse_int(major, 2, 99, &a) || idl_parse_int(dot + 1, 0, 255, &b)
	    || *s == '+' || dot[1] == '+' || dot[1] == '-')
		return 0;
	return KV((unsigned int)a, (unsigned int)b, 0);
}

/*
 * Which kernel's rules a governor file follows, from what it uses: no
 * *_ns state or residency fields means before 5.7 (the latency limit in
 * us); teo's early_hits, or menu without the negative sleep-length
 * clamp, means 5.7-5.14 (unsigned *_ns fields); otherwise the latest.
 */
unsigned int kbuild_detect(const char *t)
{
	if (!strstr(t, "exit_latency_ns") && !strstr(t, "target_residency_ns") &&
	    !strstr(t, "last_residency_ns"))
		return KV(5, 6, 0);
	if (strstr(t, "early_hits") ||
	    (strstr(t, "get_typical_interval") && !strstr(t, "delta < 0")))
		return KV(5, 14, 0);
	return KV(6, 18, 0);
}

static char *read_text(const char *path, struct idl_err *err)
{
	/* a regular file only: a FIFO would hang the build */
	FILE *f = idl_input_fopen(path, KBUILD_SRC_MAX, "a governor source",
				  err);
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *p = realloc(buf, len + 65537);

		if (!p) {
			free(buf);
			fclose(f);
			idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
			return NULL;
		}
		buf = p;
		n = fread(buf + len, 1, 65536, f);
		len += n;
		if (n < 65536 || len > KBUILD_SRC_MAX)
			break;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The compatibility layer and idlelab's header: source tree, installed. */
static int find_dirs(char *kc, char *inc, size_t len, struct idl_err *err)
{
	struct stat st;

	snprintf(kc, len, "%s/governors/kcompat", IDLELAB_SRCDIR);
	snprintf(inc, len, "%s/include", IDLELAB_SRCDIR);
	if (!stat(kc, &st))
		return 0;
	snprintf(kc, len, "%s/kcompat", IDLELAB_DATADIR);
	snprintf(inc, len, "%s", IDLELAB_INCLUDEDIR);
	if (!stat(kc, &st))
		return 0;
	return idl_err_set(err, IDL_EXIT_FAILURE,
			   "the kernel compatibility layer is not installed "
			   "(looked in %s/governors/kcompat and %s)",
			   IDLELAB_SRCDIR, kc);
}

#define RUN_FAILED	(-1)	/* it ran and failed: its messages tell */
#define RUN_NOT_RUN	(-2)	/* it could not be started (errno) */

/* Run @argv; 0 if it succeeded, else RUN_FAILED or RUN_NOT_RUN. */
/*
 * The compiler in a child with limits: a source can make it read without
 * end (#include "/dev/zero") or wait for ever (#include of a FIFO).  A
 * governor file compiles in well under a second with under 200 MiB.
 */
static void limit_child(void)
{
	struct rlimit mem = { KBUILD_CC_MEM, KBUILD_CC_MEM };
	struct rlimit cpu = { KBUILD_CC_SECS, KBUILD_CC_SECS };

	setrlimit(RLIMIT_AS, &mem);
	setrlimit(RLIMIT_CPU, &cpu);
	setpgid(0, 0);		/* the compiler's helpers die with it */
}

static int run(char *const argv[], bool verbose)
{
	int status, i, fds[2], e = 0;
	double end;
	pid_t pid;

	if (verbose) {
		for (i = 0; argv[i]; i++)
			fprintf(stderr, "%s%s", i ? " " : "", argv[i]);
		fputc('\n', stderr);
	}
	if (pipe2(fds, O_CLOEXEC))
		return RUN_NOT_RUN;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return RUN_NOT_RUN;
	}
	if (!pid) {
		close(fds[0]);
		limit_child();
		execvp(argv[0], argv);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) != (ssize_t)sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	if (read(fds[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		close(fds[0]);
		waitpid(pid, &status, 0);
		errno = e;
		return RUN_NOT_RUN;
	}
	close(fds[0]);
	/* a wall-clock limit too: a compiler blocked in a read uses no CPU */
	end = idl_mono_s() + KBUILD_CC_SECS;
	while ((i = waitpid(pid, &status, WNOHANG)) == 0 ||
	       (i < 0 && errno == EINTR)) {
		if (idl_mono_s() > end) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fprintf(stderr, "%s: stopped after %d s\n", argv[0],
				KBUILD_CC_SECS);
			return RUN_FAILED;
		}
		usleep(20000);
	}
	if (WIFSIGNALED(status))
		fprintf(stderr, "%s: %s (limits: %ld MiB, %d s)\n", argv[0],
			strsignal(WTERMSIG(status)), KBUILD_CC_MEM >> 20,
			KBUILD_CC_SECS);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : RUN_FAILED;
}

/* At most this many words in --cc or $CC ("ccache gcc -m64") */
#define CC_WORDS	8

struct build {
	const struct kbuild_opts *o;
	char	kc[4096], inc[4096], dir[1100];
	char	kc_inc[4200], prelude[4200], version[64], origin[700];
	char	obj[3][1200], tmp_out[4200];
	const char *cc;			/* as given, for messages */
	char	cc_words[512];
	char	*cc_argv[CC_WORDS];	/* @cc split at blanks */
	int	cc_n;
};

/* $CC is a command with arguments, split at blanks as make does for a
 * simple value (no quotes). */
static int split_cc(struct build *b, struct idl_err *err)
{
	char *w, *save = NULL;

	if (strlen(b->cc) >= sizeof(b->cc_words))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "compiler command too long: %s", b->cc);
	strcpy(b->cc_words, b->cc);
	for (w = strtok_r(b->cc_words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (b->cc_n == CC_WORDS)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "compiler command of more than %d "
					   "words: %s", CC_WORDS, b->cc);
		b->cc_argv[b->cc_n++] = w;
	}
	if (!b->cc_n)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "empty compiler command");
	return 0;
}

/* The compiler's words first in @argv; returns how many. */
static int cc_argv(const struct build *b, char **argv)
{
	int i;

	for (i = 0; i < b->cc_n; i++)
		argv[i] = b->cc_argv[i];
	return i;
}

#define BUILD_DIR	"idlelab-build-"	/* + PID.XXXXXX */

/* Where a build's objects go: $TMPDIR, or /tmp. */
static const char *build_tmp(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t == '/' && strlen(t) < 1000 ? t : "/tmp";
}

/*
 * A build killed before it could remove its directory leaves it behind:
 * the next build removes those whose process is gone (idl_tmp_stale()),
 * only this user's, and only the objects a build writes there.
 */
static void remove_stale_builds(const char *tmp)
{
	size_t plen = strlen(BUILD_DIR);
	struct dirent *de;
	DIR *d = opendir(tmp);
	int i;

	while (d && (de = readdir(d))) {
		char dir[1100], obj[1200];
		struct stat st;

		if (strncmp(de->d_name, BUILD_DIR, plen))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", tmp, de->d_name);
		if (lstat(dir, &st) || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid() ||
		    !idl_tmp_stale(de->d_name + plen, st.st_mtime))
			continue;
		for (i = 0; i < 3; i++) {
			snprintf(obj, sizeof(obj), "%s/%d.o", dir, i);
			unlink(obj);
		}
		rmdir(dir);
	}
	if (d)
		closedir(d);
}

/* cc -c one file: @kernel selects the compatibility prelude. */
static int compile(struct build *b, const char *src, const char *obj,
		   bool kernel)
{
	char *argv[CC_WORDS + 24];
	int n = cc_argv(b, argv);

	argv[n++] = "-pipe";	/* no temporary files of its own to leave */
	argv[n++] = "-std=gnu11";
	argv[n++] = "-O2";
	argv[n++] = "-fPIC";
	argv[n++] = "-fvisibility=hidden";
	argv[n++] = "-fno-strict-aliasing";
	argv[n++] = "-pthread";
	argv[n++] = "-I";
	argv[n++] = b->kc;
	if (kernel) {
		argv[n++] = b->version;
		argv[n++] = "-I";
		argv[n++] = b->kc_inc;
		argv[n++] = "-include";
		argv[n++] = b->prelude;
	} else {
		argv[n++] = "-I";
		argv[n++] = b->inc;
		argv[n++] = b->origin;
	}
	argv[n++] = "-c";
	argv[n++] = (char *)src;
	argv[n++] = "-o";
	argv[n++] = (char *)obj;
	argv[n] = NULL;
	return run(argv, b->o->verbose);
}

static int link_plugin(struct build *b)
{
	char *argv[CC_WORDS + 8];
	int n = cc_argv(b, argv);

	argv[n++] = "-shared";
	argv[n++] = "-pthread";
	argv[n++] = "-o";
	argv[n++] = b->tmp_out;
	argv[n++] = b->obj[0];
	argv[n++] = b->obj[1];
	argv[n++] = b->obj[2];
	argv[n] = NULL;
	return run(argv, b->o->verbose);
}

static void cleanup(struct build *b)
{
	int i;

	for (i = 0; i < 3; i++)
		unlink(b->obj[i]);
	if (b->tmp_out[0])
		unlink(b->tmp_out);
	rmdir(b->dir);
}

static int setup(struct build *b, const struct kbuild_opts *o,
		 unsigned int *ver, struct idl_err *err)
{
	const char *base = strrchr(o->src, '/');
	char *text;
	int i, fd;

	memset(b, 0, sizeof(*b));
	b->o = o;
	b->cc = o->cc ? o->cc : getenv("CC") && *getenv("CC") ?
		getenv("CC") : "cc";
	if (split_cc(b, err) || find_dirs(b->kc, b->inc, sizeof(b->kc), err))
		return -1;
	if (!(text = read_text(o->src, err)))
		return -1;
	*ver = o->kernel ? kbuild_version(o->kernel) : kbuild_detect(text);
	free(text);
	if (!*ver)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "--kernel: '%s' is not MAJOR.MINOR",
				   o->kernel);
	snprintf(b->kc_inc, sizeof(b->kc_inc), "%s/include", b->kc);
	snprintf(b->prelude, sizeof(b->prelude),
		 "%s/include/idlelab-kcompat.h", b->kc);
	snprintf(b->version, sizeof(b->version), "-DIDL_KC_VERSION=%u", *ver);
	snprintf(b->origin, sizeof(b->origin),
		 "-DKC_ORIGIN=\"kernel source %.400s, %u.%u rules\"",
		 base ? base + 1 : o->src, *ver >> 16, (*ver >> 8) & 255);
	remove_stale_builds(build_tmp());
	snprintf(b->dir, sizeof(b->dir), "%s/" BUILD_DIR "%ld.XXXXXX",
		 build_tmp(), (long)getpid());
	if (!mkdtemp(b->dir))
		return idl_err_set(err, IDL_EXIT_FAILURE, "mkdtemp: %s",
				   strerror(errno));
	for (i = 0; i < 3; i++)
		snprintf(b->obj[i], sizeof(b->obj[i]), "%s/%d.o", b->dir, i);
	/* the linker writes a temporary name, renamed when the plugin
	 * loads; one a killed build left there is removed first */
	if (idl_tmp_template(o->out, b->tmp_out, sizeof(b->tmp_out)))
		return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: name too long",
				   o->out);
	fd = mkstemp(b->tmp_out);
	if (fd < 0) {
		idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", o->out,
			    strerror(errno));
		b->tmp_out[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

int kbuild(const struct kbuild_opts *o, struct idl_err *err)
{
	const struct idl_governor_ops *ops;
	struct idl_err load_err;
	char src[4200];
	struct build b;
	unsigned int ver;
	int r;

	if (setup(&b, o, &ver, err))
		return -1;
	fprintf(idl_summary_stream(o->out),
		"%s: %s rules of Linux %u.%u (%s)\n", o->src,
		o->kernel ? "the" : "detected:", ver >> 16, (ver >> 8) & 255,
		ver < KV(5, 7, 0) ? "latency limit in us" :
		ver < KV(5, 15, 0) ? "unsigned residencies in ns" :
		"signed residencies in ns");
	r = compile(&b, o->src, b.obj[0], true);
	if (r == RUN_NOT_RUN)
		goto no_compiler;
	if (r)
		goto bad_source;
	snprintf(src, sizeof(src), "%s/glue-kernel.c", b.kc);
	if (compile(&b, src, b.obj[1], true))
		goto bad_layer;
	snprintf(src, sizeof(src), "%s/glue-idlelab.c", b.kc);
	if (compile(&b, src, b.obj[2], false) || link_plugin(&b))
		goto bad_layer;
	if (idl_plugin_load(b.tmp_out, &ops, &load_err)) {
		const char *msg = load_err.msg;
		size_t n = strlen(b.tmp_out);

		/* the message names the temporary file: the source's is
		 * the name the user knows */
		idl_err_set(err, IDL_EXIT_BADINPUT, "%s: %s", o->src,
			    strstr(msg, "no name") ? "it registers no governor "
			    "(cpuidle_register_governor() is never called)" :
			    !strncmp(msg, b.tmp_out, n) && msg[n] == ':' ?
			    msg + n + 2 : msg);
		goto fail;
	}
	if (idl_commit(b.tmp_out, o->out, err))
		goto fail;
	b.tmp_out[0] = '\0';
	fprintf(idl_summary_stream(o->out), "%s: governor \"%s\"\n", o->out,
		idl_plugin_name(ops));
	cleanup(&b);
	return 0;
no_compiler:
	idl_err_set(err, IDL_EXIT_BADINPUT, "cannot run the compiler %s: %s",
		    b.cc_argv[0], strerror(errno));
	goto fail;
bad_source:
	idl_err_set(err, IDL_EXIT_BADINPUT, "%s does not compile (the "
		    "compiler's messages are above)", o->src);
	goto fail;
bad_layer:
	idl_err_set(err, IDL_EXIT_FAILURE, "the compatibility layer in %s "
		    "does not compile or link with %s", b.kc, b.cc);
fail:
	cleanup(&b);
	return -1;
}
