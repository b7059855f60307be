// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab live: switch the kernel's cpuidle governor, run benchmarks
 * under each, and save what they and the kernel's counters measured.
 *
 * The host is always left as found: before anything changes, the
 * governor and every state's disable value go to a journal; they are
 * restored on normal exit, on error and on SIGINT/SIGTERM/SIGHUP, and a
 * journal left by a killed session is restored by the next start.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "idlectl.h"
#include "live.h"

static volatile sig_atomic_t caught_signal;

static void on_signal(int sig)
{
	caught_signal = sig;
	bench_stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: idlelab live [--governors LIST|all] [--bench SPEC,...] [--runs N]\n"
"                    [--warmup SECS] [--duration SECS] [--seed N] [--record]\n"
"                    [--latency-limit US] [--disable-state LIST] [-o DIR]\n"
"       idlelab live --restore\n"
"       idlelab live --list-bench\n\n"
"Switch the kernel's cpuidle governor, run benchmarks under each one and\n"
"save benchmark metrics, cpuidle counters, perf counters and energy.\n"
"Needs root.  The governor and state settings are restored at the end,\n"
"on error and on SIGINT/SIGTERM/SIGHUP; after a SIGKILL the next start\n"
"(or --restore) restores them from %s/live.journal.\n\n"
"Options:\n"
"  -g, --governors LIST   comma-separated governors, or 'all' (default all)\n"
"  -b, --bench SPEC,...   benchmarks (default pingpong,timer); a SPEC is\n"
"                         NAME or NAME:key=val:key=val (see --list-bench)\n"
"  -n, --runs N           repetitions per governor and benchmark (default 3)\n"
"  -w, --warmup SECS      warm-up after each switch, discarded (default 1)\n"
"  -d, --duration SECS    measured time of each run (default 5)\n"
"  -s, --seed N           shuffle the governor order per repetition\n"
"  -r, --record           also record a trace of each run\n"
"  -l, --latency-limit US hold /dev/cpu_dma_latency at US during the session\n"
"  -D, --disable-state LIST  disable these state indices for the session\n"
"  -o, --output DIR       results directory (default live-YYYYmmdd-HHMMSS)\n"
"      --restore          only restore from a journal left behind, and exit\n"
"      --sysfs-root DIR   cpuidle sysfs root (default $IDLELAB_SYSFS_ROOT or\n"
"                         %s)\n"
"      --list-bench       list benchmarks and whether they can run here\n"
"  -q, --quiet            no progress lines\n"
"  -h, --help             this help\n",
		idlectl_run_dir(), CSTATE_SYSFS_ROOT);
}

static void list_bench(void)
{
	const struct bench_def *const *d;

	for (d = bench_list(); *d; d++) {
		const char *const *k;

		printf("%-15s %-55s %s", (*d)->name, (*d)->summary,
		       !(*d)->binary ? "built-in" :
		       bench_available(*d) ? "available" : "missing (");
		if ((*d)->binary && !bench_available(*d))
			printf("Debian package %s)", (*d)->package);
		printf("\n%-15s options:", "");
		for (k = (*d)->keys; *k; k++)
			printf(" %s=", *k);
		printf("\n");
	}
}

struct cli {
	struct live_opts	o;
	const char		*govs, *benches, *disable;
	bool			restore_only;
	char			outdir[256];
	int			disable_idx[CSTATE_MAX], nr_disable;
};

static int parse_num(const char *opt, const char *s, double min, double max,
		     double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || *v < min || *v > max) {
		fprintf(stderr, "%s: %s: expected a number in %g..%g\n",
			idl_progname, opt, min, max);
		return -1;
	}
	return 0;
}

static int parse_args(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "governors", 1, NULL, 'g' }, { "bench", 1, NULL, 'b' },
		{ "runs", 1, NULL, 'n' }, { "warmup", 1, NULL, 'w' },
		{ "duration", 1, NULL, 'd' }, { "seed", 1, NULL, 's' },
		{ "record", 0, NULL, 'r' }, { "latency-limit", 1, NULL, 'l' },
		{ "disable-state", 1, NULL, 'D' }, { "output", 1, NULL, 'o' },
		{ "restore", 0, NULL, 'R' }, { "sysfs-root", 1, NULL, 'S' },
		{ "list-bench", 0, NULL, 'L' }, { "quiet", 0, NULL, 'q' },
		{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	double v;
	int ch;

	c->o.runs = 3;
	c->o.warmup_s = 1;
	c->o.duration_s = 5;
	c->o.latency_limit_us = -1;
	c->o.root = idlectl_sysfs_root();
	c->govs = "all";
	c->benches = "pingpong,timer";
	opterr = 0;	/* our own message: argv[0] is just "live" */
	while ((ch = getopt_long(argc, argv, "g:b:n:w:d:s:rl:D:o:qh", opts,
				 NULL)) != -1) {
		switch (ch) {
		case 'g': c->govs = optarg; break;
		case 'b': c->benches = optarg; break;
		case 'n':
			if (parse_num("--runs", optarg, 1, 10000, &v))
				return -1;
			c->o.runs = (int)v;
			break;
		case 'w':
			if (parse_num("--warmup", optarg, 0, 3600,
				      &c->o.warmup_s))
				return -1;
			break;
		case 'd':
			if (parse_num("--duration", optarg, 0.01, 86400,
				      &c->o.duration_s))
				return -1;
			break;
		case 's':
			if (parse_num("--seed", optarg, 0, UINT32_MAX, &v))
				return -1;
			c->o.seed = (unsigned int)v;
			c->o.shuffle = true;
			break;
		case 'r': c->o.record = true; break;
		case 'l':
			if (parse_num("--latency-limit", optarg, 0,
				      2000000000, &v))
				return -1;
			c->o.latency_limit_us = (long)v;
			break;
		case 'D': c->disable = optarg; break;
		case 'o': c->o.outdir = optarg; break;
		case 'R': c->restore_only = true; break;
		case 'S': c->o.root = optarg; break;
		case 'L': list_bench(); exit(0);
		case 'q': c->o.quiet = true; break;
		case 'h': usage(stdout); exit(0);
		default:
			fprintf(stderr, "%s: unknown option or missing "
				"argument: '%s' (see --help)\n", idl_progname,
				argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s'\n",
			idl_progname, argv[optind]);
		return -1;
	}
	return 0;
}

/* --bench: resolve names; a missing tool is skipped with its package. */
static int parse_benches(struct cli *c, struct idl_err *err)
{
	char buf[2048], *tok, *save, *s;

	snprintf(buf, sizeof(buf), "%s", c->benches);
	for (s = buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		struct live_bench *b = &c->o.bench[c->o.nr_bench];
		char *colon = strchr(tok, ':');

		if (c->o.nr_bench == LIVE_MAX_BENCH)
			return idl_err_set(err, 2, "at most %d benchmarks",
					   LIVE_MAX_BENCH);
		snprintf(b->spec, sizeof(b->spec), "%s", tok);
		if (colon)
			*colon = '\0';
		snprintf(b->opts, sizeof(b->opts), "%s", colon ? colon + 1 : "");
		b->def = bench_find_def(tok);
		if (!b->def)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "unknown benchmark '%s' (idlelab "
					   "live --list-bench lists them)", tok);
		if (bench_spec_check(b->def, b->opts, err))
			return -1;
		if (!bench_available(b->def)) {
			fprintf(stderr, "%s: skipping %s: %s not found "
				"(install the Debian package %s)\n",
				idl_progname, tok, b->def->binary,
				b->def->package);
			continue;
		}
		c->o.nr_bench++;
	}
	if (!c->o.nr_bench)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "no benchmark can run here");
	return 0;
}

/* --governors: 'all' or a list, each checked against available ones. */
static int parse_governors(struct cli *c, struct idl_err *err)
{
	char avail[IDLECTL_MAX_GOVS][IDLECTL_GOV_LEN], list[512] = "";
	char buf[512], *tok, *save, *s;
	int n, i;

	n = idlectl_available(c->o.root, avail, IDLECTL_MAX_GOVS, err);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? " " : "", avail[i]);
	if (!strcmp(c->govs, "all")) {
		char cur[IDLECTL_GOV_LEN] = "";

		/* the governor in use first: it is the baseline column */
		idlectl_get_governor(c->o.root, cur, sizeof(cur), NULL);
		for (i = 0; i < n; i++)
			if (!strcmp(avail[i], cur))
				memcpy(c->o.govs[c->o.nr_govs++], avail[i],
				       IDLECTL_GOV_LEN);
		for (i = 0; i < n; i++)
			if (strcmp(avail[i], cur))
				memcpy(c->o.govs[c->o.nr_govs++], avail[i],
				       IDLECTL_GOV_LEN);
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", c->govs);
	for (s = buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		for (i = 0; i < n && strcmp(avail[i], tok); i++)
			;
		if (i == n)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "governor '%s' is not available "
					   "here (available: %s)", tok, list);
		if (c->o.nr_govs == IDLECTL_MAX_GOVS)
			return idl_err_set(err, 2, "too many governors");
		snprintf(c->o.govs[c->o.nr_govs++], IDLECTL_GOV_LEN, "%s",
			 tok);
	}
	return c->o.nr_govs ? 0 :
	       idl_err_set(err, IDL_EXIT_BADINPUT, "no governor given");
}

static int parse_disable(struct cli *c, struct idl_err *err)
{
	int nstates = idlectl_nr_states(c->o.root, 0);
	char buf[256], *tok, *save, *s, *end;

	if (!c->disable)
		return 0;
	snprintf(buf, sizeof(buf), "%s", c->disable);
	for (s = buf; (tok = strtok_r(s, ",", &save)); s = NULL) {
		long k = strtol(tok, &end, 10);

		if (*end || end == tok || k < 0 || k >= nstates)
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "state index '%s' out of range "
					   "(this machine has states 0..%d)",
					   tok, nstates - 1);
		if (c->nr_disable < CSTATE_MAX)
			c->disable_idx[c->nr_disable++] = (int)k;
	}
	return 0;
}



static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}


static void default_outdir(struct cli *c)
{
	time_t now = time(NULL);
	struct tm tm;

	if (c->o.outdir)
		return;
	localtime_r(&now, &tm);
	strftime(c->outdir, sizeof(c->outdir), "live-%Y%m%d-%H%M%S", &tm);
	c->o.outdir = c->outdir;
}

/* Everything between saving the journal and restoring it. */
static int session(struct cli *c, struct idl_err *err)
{
	int fd = -1, rc;

	if (idlectl_disable_states(c->o.root, c->disable_idx, c->nr_disable,
				    err))
		return -1;
	if (c->o.latency_limit_us >= 0) {
		fd = idlectl_hold_latency(c->o.latency_limit_us, err);
		if (fd < 0)
			return -1;
	}
	if (!c->o.quiet)
		printf("idlelab live: %d governor(s) x %d benchmark(s) x %d "
		       "run(s), %.3g s each (+%.3g s warm-up) -> %s\n",
		       c->o.nr_govs, c->o.nr_bench, c->o.runs,
		       c->o.duration_s, c->o.warmup_s, c->o.outdir);
	rc = live_run(&c->o, err);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int restore(const char *journal, const char *root, bool quiet)
{
	char what[256], gov[IDLECTL_GOV_LEN] = "?";
	struct idl_err err = { 0 };

	if (idlectl_journal_restore(journal, what, sizeof(what), &err)) {
		fprintf(stderr, "%s: RESTORE FAILED: %s\n%s: the journal %s "
			"is kept; run 'idlelab live --restore'\n",
			idl_progname, err.msg, idl_progname, journal);
		return -1;
	}
	idlectl_get_governor(root, gov, sizeof(gov), NULL);
	if (!quiet)
		printf("idlelab live: restored %s (governor now %s)\n", what,
		       gov);
	fflush(stdout);
	return 0;
}

int cmd_live(int argc, char **argv)
{
	struct cli *c = calloc(1, sizeof(*c));
	struct idl_err err = { 0 };
	char journal[4200], initial[IDLECTL_GOV_LEN] = "";
	int lock_fd = -1, rc;

	if (!c || parse_args(c, argc, argv)) {
		free(c);
		return IDL_EXIT_BADINPUT;
	}
	snprintf(journal, sizeof(journal), "%s/live.journal",
		 idlectl_run_dir());
	install_signals();
	if (idlectl_session_open(c->o.root, journal, c->restore_only, &lock_fd,
				 &err))
		goto fail;
	if (c->restore_only) {
		idlectl_unlock(lock_fd);
		free(c);
		return 0;
	}
	if (parse_governors(c, &err) || parse_benches(c, &err) ||
	    parse_disable(c, &err) ||
	    idlectl_get_governor(c->o.root, initial, sizeof(initial), &err))
		goto fail;
	c->o.initial_governor = initial;
	default_outdir(c);
	if (idlectl_journal_save(c->o.root, journal, &err))
		goto fail;
	rc = session(c, &err);
	if (restore(journal, c->o.root, c->o.quiet))
		rc = -1, err.status = err.status ? err.status : 1;
	idlectl_unlock(lock_fd);
	if (rc < 0) {
		if (err.msg[0])
			idl_err_print(&err);
		free(c);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	if (caught_signal) {
		fprintf(stderr, "%s: stopped by signal %d (%s); partial "
			"results in %s\n", idl_progname, (int)caught_signal,
			strsignal(caught_signal), c->o.outdir);
		rc = 128 + caught_signal;
		free(c);
		return rc;
	}
	if (!c->o.quiet)
		printf("results: %s/results.json\n", c->o.outdir);
	free(c);
	return 0;
fail:
	idl_err_print(&err);
	idlectl_unlock(lock_fd);
	free(c);
	return err.status ? err.status : IDL_EXIT_FAILURE;
}
