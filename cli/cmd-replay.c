// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab replay: run several governors over exactly the same recorded
 * idle periods and score each one.  A thin layer over replay/.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "cli.h"
#include "lib/paths.h"
#include "options.h"
#include "plugin.h"
#include "run.h"

#define DEFAULT_GOVERNORS	"menu,teo,ladder,haltpoll,oracle"

static const char replay_usage[] =
"usage: idlelab replay [OPTIONS] [TRACE...]\n"
"\n"
"Replay the idle periods of TRACE (default: the bundled traces/data/default.idl)\n"
"through several governors and score each one (doc/scoring.md).\n";

/* FROM or TO of --explain: an idle period number, or a time with a unit */
static int parse_explain_point(const char *s, u64 *v, bool *is_time)
{
	*is_time = !idl_parse_time(s, v);
	return *is_time ? 0 : idl_parse_u64(s, 0, UINT64_MAX, v);
}

/* --explain CPU[:FROM-TO] */
static int opt_explain(const struct idl_option *opt, const char *arg)
{
	struct replay_opts *o = opt->value;
	char buf[128], *colon, *dash;
	bool t1, t2;

	if (strlen(arg) >= sizeof(buf))
		goto bad;
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (idl_parse_cpu(buf, IDL_CPU_MAX, &o->explain_cpu))
		goto bad;
	o->explain_from = 0;
	o->explain_to = UINT64_MAX;
	if (!colon)
		return 0;
	dash = strchr(colon + 1, '-');
	if (!dash)
		goto bad;
	*dash = '\0';
	if (parse_explain_point(colon + 1, &o->explain_from, &t1) ||
	    parse_explain_point(dash + 1, &o->explain_to, &t2) || t1 != t2 ||
	    o->explain_to < o->explain_from)
		goto bad;
	o->explain_by_time = t1;
	return 0;
bad:
	return idl_opt_error(opt, arg, "CPU[:FROM-TO]");
}

static bool find_spec(const struct replay_opts *o, const char *spec)
{
	int i;

	for (i = 0; i < o->ngov; i++)
		if (!strcmp(o->gov[i].spec, spec))
			return true;
	return false;
}

/*
 * Split a -g list on commas; "x=y" items belong to the spec before.
 * Returns the number of governors, or -1 (message printed).
 */
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
	return n;
}

struct cli {
	struct replay_opts	o;
	int			fmt;	/* enum replay_format */
	const char		*output;
	bool			per_cpu;
	bool			gov_given;
	unsigned int		bare;	/* --bare RUNS */
};

static int opt_governors(const struct idl_option *opt, const char *arg)
{
	struct cli *c = opt->value;
	int n = parse_governors(arg, &c->o, false);

	c->gov_given = true;
	if (!n)
		return idl_opt_error(opt, arg, "a governor list");
	return n < 0 ? -1 : 0;
}

static int opt_disable(const struct idl_option *opt, const char *arg)
{
	struct replay_opts *o = opt->value;

	if (o->ndisable == REPLAY_MAX_DISABLE) {
		idl_error("--disable: at most %d states", REPLAY_MAX_DISABLE);
		return -1;
	}
	o->disable[o->ndisable++] = arg;
	return 0;
}

/* --synthetic N[:CPUS]: at most 10^10 periods (about 1000 s per CPU) */
#define REPLAY_SYNTH_MAX	10000000000
static int opt_synthetic(const struct idl_option *opt, const char *arg)
{
	struct replay_opts *o = opt->value;
	char buf[64], *colon;
	uint64_t n, cpus = 1;

	if (strlen(arg) >= sizeof(buf))
		goto bad;
	strcpy(buf, arg);
	colon = strchr(buf, ':');
	if (colon)
		*colon = '\0';
	if (idl_parse_u64(buf, 1, REPLAY_SYNTH_MAX, &n) ||
	    (colon && idl_parse_u64(colon + 1, 1, TRACE_MAX_CPUS, &cpus)))
		goto bad;
	o->synth_periods = n;
	o->synth_cpus = (unsigned int)cpus;
	return 0;
bad:
	return idl_opt_error(opt, arg, "N[:CPUS] (N in 1.."
			     IDL_STR(REPLAY_SYNTH_MAX) ", CPUS in 1.."
			     IDL_STR(TRACE_MAX_CPUS) ")");
}

/* The options into @c; the index of the first TRACE, or IDL_OPTS_*. */
static int parse_args(struct cli *c, int argc, char **argv)
{
	struct replay_opts *o = &c->o;
	const struct idl_option opts[] = {
		IDL_OPT_CALLBACK('g', "governors", c, "LIST", opt_governors,
			"governors, comma-separated, each "
			"NAME[:param=value,...] (default " DEFAULT_GOVERNORS
			")"),
		IDL_OPT_STR(0, "machine", &o->machine, "NAME",
			"what-if: replay on a built-in table or table file"),
		IDL_OPT_PATH(0, "states", &o->states_file, "FILE",
			"what-if: replay on the table in FILE"),
		IDL_OPT_CALLBACK(0, "disable", o, "STATE", opt_disable,
			"what-if: disable a state (index or name); "
			"repeatable"),
		IDL_OPT_S64(0, "latency-req", &o->latency_req, "NS", 0,
			INT64_MAX, "what-if: PM QoS latency limit in ns, "
			"for every period"),
		IDL_OPT_UINT(0, "hz", &o->hz, "N", 1, TRACE_HZ_MAX,
			"what-if: tick rate"),
		IDL_OPT_S64(0, "merge-gap", &o->merge_gap_ns, "NS", 0,
			INT64_MAX, "merge recorded tick/poll-limit wakeups "
			"followed by a re-entry within NS (default "
			IDL_STR(REPLAY_DEFAULT_MERGE_GAP_NS) ")"),
		IDL_OPT_INT('j', "jobs", &o->jobs, "N", 1, 256,
			"threads over CPUs and traces (results do not depend "
			"on N)"),
		IDL_OPT_UINT(0, "plugin-timeout", &o->plugin_timeout, "S", 1,
			86400, "a plugin's column that makes no progress for "
			"S seconds is stopped (default 10)"),
		IDL_OPT_CHOICE(0, "format", &c->fmt, "FMT",
			"text (default), csv or json", "text", "csv", "json"),
		IDL_OPT_FLAG(0, "per-cpu", &c->per_cpu,
			"csv/json: add per-CPU results"),
		IDL_OPT_U64(0, "disagreements", &o->disagreements, "N", 1,
			UINT64_MAX, "list the first N recorded entries where "
			"the live governor's column chose differently from "
			"the kernel, with every input it saw"),
		IDL_OPT_CALLBACK(0, "explain", o, "CPU[:FROM-TO]", opt_explain,
			"per-decision lines for CPU; FROM-TO are idle period "
			"numbers, or times since trace start with a unit (ns, "
			"us, ms, s), e.g. 0:1.5s-1.6s"),
		IDL_OPT_OUTPUT('o', "output", &c->output, "FILE",
			"write the results to FILE (atomically)"),
		IDL_OPT_CALLBACK(0, "synthetic", o, "N[:CPUS]", opt_synthetic,
			"replay N generated periods per CPU instead of traces "
			"(benchmarking aid; table --machine, default skx)"),
		IDL_OPT_UINT(0, "bare", &c->bare, "RUNS", 1, 1000,
			"instead of replaying, time each governor's idle loop "
			"alone over the periods in memory, RUNS times "
			"(benchmarking aid: make bench's reference)"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = {
		.usage = replay_usage, .opts = opts, .max_operands = -1,
		.input_operands = true,
	};

	return idl_parse_options(argc, argv, &cl);
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
			idl_warn("--explain: %s has no CPU %d", tr->shown,
				 c->o.explain_cpu);
		if (!tr->explain)
			continue;
		for (u = 0; u < tr->ncpu; u++) {
			if (!tr->explain[u])
				continue;
			/* (written to its end: the position is its size) */
			if (ftell(tr->explain[u]) <= 0) {
				idl_warn("--explain: %s: no period of CPU %u in "
					 "the window", tr->shown, u);
				continue;
			}
			fprintf(out, "# explain %s cpu %u\n", tr->shown, u);
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

		if (!tr->disagree && !tr->setup.own_table) {
			/* the recorded states index the trace's own table */
			fprintf(out, "# disagreements %s: none on another "
				"table than the trace's (--machine, "
				"--states)\n", tr->shown);
			continue;
		}
		if (!tr->disagree) {
			fprintf(out, "# disagreements %s: no column is the "
				"governor live at capture (%s)\n", tr->shown,
				tr->meta.governor[0] ? tr->meta.governor :
				"unknown");
			continue;
		}
		fprintf(out, "# disagreements %s\n", tr->shown);
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

/* --bare RUNS: the governors' own cost instead of a replay (bare.c). */
static int run_bare(struct cli *c, char **paths, int npaths)
{
	struct replay_run run;
	struct idl_err err;
	int gi, ret;

	if (c->o.synth_periods || c->o.explain_cpu >= 0 ||
	    c->o.disagreements || c->fmt != REPLAY_TEXT || c->per_cpu ||
	    c->output)
		return idl_usage_error("--bare times the governors over "
				       "traces and prints a table: not with "
				       "--synthetic, --explain, "
				       "--disagreements, --format, --per-cpu "
				       "or -o");
	for (gi = 0; gi < c->o.ngov; gi++)
		if (idl_governor_is_plugin(c->o.gov[gi].ops))
			return idl_usage_error("--bare: %s is a plugin, which "
					       "runs in a process of its own",
					       c->o.gov[gi].spec);
	memset(&err, 0, sizeof(err));
	ret = replay_prepare(&run, &c->o, paths, npaths, &err);
	if (!ret)
		ret = replay_bare(&run, c->bare, stdout, &err);
	replay_run_free(&run);
	if (ret) {
		idl_err_print(&err);
		return err.status ? err.status : IDL_EXIT_FAILURE;
	}
	return IDL_EXIT_OK;
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
	opt = parse_args(&c, argc, argv);
	if (opt < 0)
		return idl_opts_status(opt);
	if (c.o.machine && c.o.states_file)
		return idl_usage_error("--machine and --states exclude each "
				       "other");
	if (c.per_cpu && c.fmt == REPLAY_TEXT && !c.bare)
		return idl_usage_error("--per-cpu: the per-CPU results are in "
				       "--format csv or json");
	if (!c.gov_given &&
	    parse_governors(DEFAULT_GOVERNORS, &c.o, true) <= 0) {
		fprintf(stderr, "%s: no governor is built\n", idl_progname);
		return IDL_EXIT_FAILURE;
	}
	paths = argv + opt;
	npaths = argc - opt;
	if (npaths && c.o.synth_periods)
		return idl_usage_error("--synthetic replays generated periods: "
				       "no TRACE with it");
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
	if (c.bare)
		return run_bare(&c, paths, npaths);
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
