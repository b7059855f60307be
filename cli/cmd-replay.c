// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab replay: run several governors over exactly the same recorded
 * idle periods and score each one.  A thin layer over replay/.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "cli.h"
#include "lib/paths.h"
#include "run.h"

#define DEFAULT_GOVERNORS	"menu,teo,ladder,haltpoll,oracle"

static void usage(FILE *f)
{
	fprintf(f,
"usage: idlelab replay [OPTIONS] [TRACE...]\n"
"\n"
"Replay the idle periods of TRACE (default: the bundled traces/data/default.idl)\n"
"through several governors and score each one (doc/scoring.md).\n"
"\n"
"  -g, --governors LIST   governors, comma-separated, each NAME[:param=value,...]\n"
"                         (default " DEFAULT_GOVERNORS ")\n"
"      --machine NAME     what-if: replay on a built-in table or table file\n"
"      --states FILE      what-if: replay on the table in FILE\n"
"      --disable STATE    what-if: disable a state (index or name); repeatable\n"
"      --latency-req NS   what-if: PM QoS latency limit in ns\n"
"      --hz N             what-if: tick rate\n"
"      --merge-gap NS     merge recorded tick/poll-limit wakeups followed by a\n"
"                         re-entry within NS (default %d)\n"
"  -j, --jobs N           threads over CPUs and traces (results do not depend on N)\n"
"      --plugin-timeout S a plugin's column that makes no progress for S\n"
"                         seconds is stopped (default 10)\n"
"      --format FMT       text (default), csv or json\n"
"      --per-cpu          csv/json: add per-CPU results\n"
"      --disagreements N  list the first N recorded entries where the live\n"
"                         governor's column chose differently from the kernel,\n"
"                         with every input it saw\n"
"      --explain CPU[:FROM-TO]\n"
"                         per-decision lines for CPU; FROM-TO are idle period\n"
"                         numbers, or times since trace start with a unit\n"
"                         (ns, us, ms, s), e.g. 0:1.5s-1.6s\n"
"  -o, --output FILE      write the results to FILE (atomically)\n"
"      --synthetic N[:CPUS]  replay N generated periods per CPU instead of traces\n"
"                         (benchmarking aid; table --machine, default skx)\n"
"  -h, --help             this help\n",
		REPLAY_DEFAULT_MERGE_GAP_NS);
}

static int parse_ll(const char *opt, const char *s, long long min,
		    long long *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	if (!*s || *end || errno || *v < min) {
		fprintf(stderr, "%s: %s: '%s' is not a valid number\n",
			idl_progname, opt, s);
		return -1;
	}
	return 0;
}

/* A time with a unit ("1.5ms") in ns; -1 if @s has no unit. */
static int parse_time(const char *s, u64 *ns, bool *has_unit)
{
	static const struct { const char *u; double mul; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (!*end) {
		unsigned long long n;

		*has_unit = false;
		if (strchr(s, '.') || sscanf(s, "%llu", &n) != 1)
			return -1;
		*ns = n;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].u)) {
			*has_unit = true;
			*ns = (u64)(v * units[i].mul + 0.5);
			return 0;
		}
	return -1;
}

static int parse_explain(const char *arg, struct replay_opts *o)
{
	char buf[128], *colon, *dash;
	long long cpu;
	bool u1 = false, u2 = false;

	snprintf(buf, sizeof(buf), "%s", arg);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (parse_ll("--explain", buf, 0, &cpu))
		return -1;
	o->explain_cpu = (int)cpu;
	o->explain_from = 0;
	o->explain_to = UINT64_MAX;
	if (!colon)
		return 0;
	dash = strchr(colon + 1, '-');
	if (!dash)
		goto bad;
	*dash = '\0';
	if (parse_time(colon + 1, &o->explain_from, &u1) ||
	    parse_time(dash + 1, &o->explain_to, &u2) || u1 != u2 ||
	    o->explain_to < o->explain_from)
		goto bad;
	o->explain_by_time = u1;
	return 0;
bad:
	fprintf(stderr, "%s: --explain: '%s' is not CPU[:FROM-TO]\n",
		idl_progname, arg);
	return -1;
}

static bool find_spec(const struct replay_opts *o, const char *spec)
{
	int i;

	for (i = 0; i < o->ngov; i++)
		if (!strcmp(o->gov[i].spec, spec))
			return true;
	return false;
}

/* Split a -g list on commas; "x=y" items belong to the spec before. */
static int parse_governors(const char *list, struct replay_opts *o,
			   bool defaults)
{
	char buf[1024], spec[IDL_GOV_SPEC_LEN], err[512], *tok, *save = NULL;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	spec[0] = '\0';
	for (tok = strtok_r(buf, ",", &save);; tok = strtok_r(NULL, ",", &save)) {
		if (tok && strchr(tok, '=') && !strchr(tok, ':') && spec[0]) {
			size_t l = strlen(spec);

			snprintf(spec + l, sizeof(spec) - l, ",%s", tok);
			continue;
		}
		if (spec[0]) {
			struct idl_governor *g = &o->gov[o->ngov];

			if (o->ngov == REPLAY_MAX_GOV) {
				fprintf(stderr, "%s: at most %d governors\n",
					idl_progname, REPLAY_MAX_GOV);
				return -1;
			}
			if (idl_governor_parse(g, spec, err, sizeof(err))) {
				if (!defaults) {
					fprintf(stderr, "%s: %s\n",
						idl_progname, err);
					return -1;
				}
				idl_warn("governor %s is not built; skipped",
					 spec);
			} else {
				/* "NAME:p=default" is not "NAME", which runs
				 * with the capture's tunables: keep it apart */
				if (strchr(spec, ':') && !strchr(g->spec, ':'))
					snprintf(g->spec, sizeof(g->spec), "%s",
						 spec);
				if (find_spec(o, g->spec)) {
					fprintf(stderr, "%s: governor %s given "
						"twice\n", idl_progname,
						g->spec);
					return -1;
				}
				o->gov_has_params[o->ngov++] =
					strchr(spec, ':') != NULL;
				n++;
			}
		}
		if (!tok)
			break;
		snprintf(spec, sizeof(spec), "%s", tok);
	}
	return n ? 0 : -1;
}

enum {
	OPT_MACHINE = 256, OPT_STATES, OPT_DISABLE, OPT_LATENCY, OPT_HZ,
	OPT_FORMAT, OPT_EXPLAIN, OPT_PER_CPU, OPT_MERGE_GAP, OPT_SYNTH,
	OPT_DISAGREE, OPT_PLUGIN_TIMEOUT,
};

static const struct option long_opts[] = {
	{ "governors", required_argument, NULL, 'g' },
	{ "machine", required_argument, NULL, OPT_MACHINE },
	{ "states", required_argument, NULL, OPT_STATES },
	{ "disable", required_argument, NULL, OPT_DISABLE },
	{ "latency-req", required_argument, NULL, OPT_LATENCY },
	{ "hz", required_argument, NULL, OPT_HZ },
	{ "merge-gap", required_argument, NULL, OPT_MERGE_GAP },
	{ "jobs", required_argument, NULL, 'j' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "per-cpu", no_argument, NULL, OPT_PER_CPU },
	{ "explain", required_argument, NULL, OPT_EXPLAIN },
	{ "disagreements", required_argument, NULL, OPT_DISAGREE },
	{ "plugin-timeout", required_argument, NULL, OPT_PLUGIN_TIMEOUT },
	{ "output", required_argument, NULL, 'o' },
	{ "synthetic", required_argument, NULL, OPT_SYNTH },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct cli {
	struct replay_opts	o;
	enum replay_format	fmt;
	const char		*output;
	bool			per_cpu;
	bool			gov_given;
};

static int parse_synth(const char *arg, struct replay_opts *o)
{
	unsigned long long n;
	unsigned int c = 1;
	char extra;

	if (sscanf(arg, "%llu:%u%c", &n, &c, &extra) == 2 ||
	    (sscanf(arg, "%llu%c", &n, &extra) == 1 && !strchr(arg, ':'))) {
		if (n && c && c <= TRACE_MAX_CPUS) {
			o->synth_periods = n;
			o->synth_cpus = c;
			return 0;
		}
	}
	fprintf(stderr, "%s: --synthetic: '%s' is not N[:CPUS]\n",
		idl_progname, arg);
	return -1;
}

static int parse_opt(struct cli *c, int opt, const char *arg)
{
	struct replay_opts *o = &c->o;
	long long v;

	switch (opt) {
	case 'g':
		c->gov_given = true;
		return parse_governors(arg, o, false);
	case OPT_MACHINE:
		o->machine = arg;
		return 0;
	case OPT_STATES:
		o->states_file = arg;
		return 0;
	case OPT_DISABLE:
		if (o->ndisable == REPLAY_MAX_DISABLE) {
			fprintf(stderr, "%s: too many --disable\n",
				idl_progname);
			return -1;
		}
		o->disable[o->ndisable++] = arg;
		return 0;
	case OPT_LATENCY:
		if (parse_ll("--latency-req", arg, 0, &v))
			return -1;
		o->latency_req = v;
		return 0;
	case OPT_HZ:
		if (parse_ll("--hz", arg, 1, &v) || v > 100000)
			return -1;
		o->hz = (unsigned int)v;
		return 0;
	case OPT_MERGE_GAP:
		if (parse_ll("--merge-gap", arg, 0, &v))
			return -1;
		o->merge_gap_ns = v;
		return 0;
	case 'j':
		if (parse_ll("--jobs", arg, 1, &v) || v > 256)
			return -1;
		o->jobs = (int)v;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "text"))
			c->fmt = REPLAY_TEXT;
		else if (!strcmp(arg, "csv"))
			c->fmt = REPLAY_CSV;
		else if (!strcmp(arg, "json"))
			c->fmt = REPLAY_JSON;
		else {
			fprintf(stderr, "%s: --format: '%s' is not text, csv "
				"or json\n", idl_progname, arg);
			return -1;
		}
		return 0;
	case OPT_PER_CPU:
		c->per_cpu = true;
		return 0;
	case OPT_EXPLAIN:
		return parse_explain(arg, o);
	case OPT_PLUGIN_TIMEOUT:
		if (parse_ll("--plugin-timeout", arg, 1, &v) || v > 86400)
			return -1;
		o->plugin_timeout = (unsigned int)v;
		return 0;
	case OPT_DISAGREE:
		if (parse_ll("--disagreements", arg, 1, &v))
			return -1;
		o->disagreements = (u64)v;
		return 0;
	case 'o':
		c->output = arg;
		return 0;
	case OPT_SYNTH:
		return parse_synth(arg, o);
	}
	return -1;
}

struct output {
	const struct cli	*c;
	const struct replay_run	*run;
};

static int write_results(FILE *f, void *ctx, struct idl_err *err)
{
	const struct output *out = ctx;

	(void)err;
	return replay_write(f, out->run, out->c->fmt, out->c->per_cpu);
}

/* Write the results to stdout, or to -o FILE atomically. */
static int write_output(struct cli *c, const struct replay_run *run)
{
	struct output out = { c, run };
	struct idl_err err;

	if (!c->output)
		return replay_write(stdout, run, c->fmt, c->per_cpu);
	if (idl_write_atomic(c->output, write_results, &out, &err)) {
		idl_err_print(&err);
		return -1;
	}
	return 0;
}

static void dump_explain(const struct cli *c, const struct replay_run *run)
{
	FILE *out = c->fmt != REPLAY_TEXT && !c->output ? stderr : stdout;
	char buf[8192];
	size_t n;
	int t;
	unsigned int u;

	for (t = 0; t < run->ntrace; t++) {
		const struct replay_trace *tr = &run->tr[t];

		if (c->o.explain_cpu >= 0 && !tr->explain)
			idl_warn("--explain: %s has no CPU %d", tr->path,
				 c->o.explain_cpu);
		if (!tr->explain)
			continue;
		for (u = 0; u < tr->ncpu; u++) {
			if (!tr->explain[u])
				continue;
			fprintf(out, "# explain %s cpu %u\n", tr->path, u);
			rewind(tr->explain[u]);
			while ((n = fread(buf, 1, sizeof(buf),
					  tr->explain[u])) > 0)
				fwrite(buf, 1, n, out);
		}
	}
	fflush(out);
}

/* Per trace, the reports of its CPUs in CPU order, the first N in all. */
static void dump_disagreements(const struct cli *c,
			       const struct replay_run *run)
{
	FILE *out = c->fmt != REPLAY_TEXT && !c->output ? stderr : stdout;
	char line[4096];
	u64 n;
	int t;
	unsigned int u;

	for (t = 0; t < run->ntrace && c->o.disagreements; t++) {
		const struct replay_trace *tr = &run->tr[t];

		if (!tr->disagree) {
			fprintf(out, "# disagreements %s: no column is the "
				"governor live at capture (%s)\n", tr->path,
				tr->meta.governor[0] ? tr->meta.governor :
				"unknown");
			continue;
		}
		fprintf(out, "# disagreements %s\n", tr->path);
		n = 0;
		for (u = 0; u < tr->ncpu; u++) {
			rewind(tr->disagree[u]);
			while (fgets(line, sizeof(line), tr->disagree[u])) {
				if (!strncmp(line, "disagreement ", 13) &&
				    n++ == c->o.disagreements)
					break;
				if (n > c->o.disagreements)
					break;
				fputs(line, out);
			}
		}
		if (!n)
			fputs("none\n", out);
	}
	fflush(out);
}

int cmd_replay(int argc, char **argv)
{
	struct cli c;
	struct replay_run run;
	struct idl_err err;
	const char *def[1];
	char **paths;
	int opt, npaths, ret;

	memset(&c, 0, sizeof(c));
	c.o.latency_req = -1;
	c.o.merge_gap_ns = REPLAY_DEFAULT_MERGE_GAP_NS;
	c.o.jobs = 1;
	c.o.explain_cpu = -1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "g:j:o:h", long_opts,
				  NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return IDL_EXIT_OK;
		}
		if (opt == '?' || parse_opt(&c, opt, optarg)) {
			fprintf(stderr, "Try 'idlelab replay --help'.\n");
			return IDL_EXIT_BADINPUT;
		}
	}
	if (c.o.machine && c.o.states_file) {
		fprintf(stderr, "%s: --machine and --states exclude each other\n",
			idl_progname);
		return IDL_EXIT_BADINPUT;
	}
	if (!c.gov_given && parse_governors(DEFAULT_GOVERNORS, &c.o, true)) {
		fprintf(stderr, "%s: no governor is built\n", idl_progname);
		return IDL_EXIT_FAILURE;
	}
	paths = argv + optind;
	npaths = argc - optind;
	if (!npaths && !c.o.synth_periods) {
		def[0] = replay_default_trace();
		if (!def[0]) {
			fprintf(stderr, "%s: no TRACE given, and the default trace "
				"traces/data/default.idl is not installed (looked "
				"in %s/traces/data and %s)\n", idl_progname,
				IDLELAB_SRCDIR, IDLELAB_DATADIR);
			return IDL_EXIT_FAILURE;
		}
		paths = (char **)def;
		npaths = 1;
	}
	c.o.progress = isatty(STDERR_FILENO);
	memset(&err, 0, sizeof(err));
	if (replay_run(&run, &c.o, paths, npaths, &err)) {
		idl_err_print(&err);
		replay_run_free(&run);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	dump_explain(&c, &run);
	dump_disagreements(&c, &run);
	for (opt = 0; opt < run.ntrace; opt++)
		if (run.tr[opt].damage[0])
			idl_warn("%s", run.tr[opt].damage); /* names the file */
	ret = write_output(&c, &run) ? IDL_EXIT_FAILURE : IDL_EXIT_OK;
	/* a plugin that failed: the others' numbers are out, and it says */
	for (opt = 0; opt < REPLAY_MAX_GOV; opt++)
		if (run.failed[opt]) {
			fprintf(stderr, "%s: plugin %s\n", idl_progname,
				run.failed[opt]);
			ret = IDL_EXIT_FAILURE;
		}
	replay_run_free(&run);
	return ret;
}
