// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab states: show a C-state table (this machine, a built-in real
 * table, or a table file), list the built-in tables, save a table file.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cstate.h"
#include "text.h"
#include "error.h"
#include "options.h"

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };

struct opts {
	const char	*machine;
	const char	*file;
	const char	*root;
	const char	*save;
	int		cpu;		/* -1: not given (0) */
	bool		sysfs;
	bool		list;
	int		fmt;		/* enum fmt */
};

static const char states_usage[] =
	"usage: idlelab states [--sysfs] [--sysfs-root DIR] [--cpu N]\n"
	"                      [--machine NAME] [--file F] [--list]\n"
	"                      [--save FILE] [--format text|csv|json]\n\n"
	"Show a C-state table.  Default: this machine (sysfs, cpu 0).\n";

static void print_warning(const char *msg)
{
	idl_warn("%s", msg);
}

static const char *unit_name(enum cstate_power_unit u)
{
	static const char *const names[] = { "none", "mW", "relative" };

	return names[u];
}

/* ns as microseconds, exact: "133" or "1.5" */
static const char *us_str(int64_t ns, char *buf, size_t len)
{
	if (ns % 1000 == 0)
		snprintf(buf, len, "%lld", (long long)(ns / 1000));
	else
		snprintf(buf, len, "%.3f", (double)ns / 1000.0);
	return buf;
}

static void print_text(const struct cstate_table *t, const struct opts *o)
{
	char cur[64], avail[256], a[32], b[32], flags[128];
	struct idl_err err;
	int i;

	printf("Table: %s\n", t->name);
	printf("Description: %s\n", t->description);
	printf("CPUidle driver: %s\n", t->driver);
	if (o->sysfs && !cstate_sysfs_governors(o->root, cur, sizeof(cur),
						 avail, sizeof(avail), &err))
		printf("CPUidle governor: %s (available: %s)\n", cur, avail);
	printf("Source: %s\n", t->source);
	printf("Rule: %s\n", t->rule);
	printf("\nNumber of idle states: %d\n", t->count);
	printf("Available idle states:");
	for (i = 0; i < t->count; i++)
		printf(" %s", t->states[i].name);
	printf("\n");
	for (i = 0; i < t->count; i++) {
		const struct cstate *s = &t->states[i];

		cstate_flags_format(s->flags, flags, sizeof(flags));
		printf("%s:\n", s->name);
		printf("Flags/Description: %s\n", s->desc);
		printf("Latency: %s us\n", us_str(s->exit_latency_ns, a,
						  sizeof(a)));
		printf("Residency: %s us\n", us_str(s->target_residency_ns, b,
						    sizeof(b)));
		printf("Flags: %s\n", flags);
		printf("Disabled: %s\n", s->disabled ? "yes" : "no");
		if (t->power_unit == CSTATE_POWER_NONE || isnan(s->power))
			printf("Power: n/a\n");
		else
			printf("Power: %g %s\n", s->power,
			       unit_name(t->power_unit));
	}
}

static void csv_field(const char *s)
{
	idl_csv_text(stdout, s, false);
}

static void print_csv(const struct cstate_table *t)
{
	char a[32], b[32], flags[128];
	int i;

	printf("index,name,desc,latency_us,residency_us,flags,disabled,power,entry_energy\n");
	for (i = 0; i < t->count; i++) {
		const struct cstate *s = &t->states[i];

		cstate_flags_format(s->flags, flags, sizeof(flags));
		for (char *p = flags; *p; p++)
			if (*p == ',')
				*p = '|';
		printf("%d,", i);
		csv_field(s->name);
		putchar(',');
		csv_field(s->desc);
		printf(",%s,%s,%s,%d,", us_str(s->exit_latency_ns, a, sizeof(a)),
		       us_str(s->target_residency_ns, b, sizeof(b)), flags,
		       s->disabled);
		if (!isnan(s->power))
			printf("%g", s->power);
		putchar(',');
		if (!isnan(s->entry_energy))
			printf("%g", s->entry_energy);
		putchar('\n');
	}
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void json_num(double v)
{
	if (isnan(v))
		printf("null");
	else
		printf("%.10g", v);
}

static void json_state(const struct cstate *s, int i)
{
	char flags[128], *w;

	cstate_flags_format(s->flags, flags, sizeof(flags));
	printf("    {\"index\": %d, \"name\": ", i);
	json_str(s->name);
	printf(", \"desc\": ");
	json_str(s->desc);
	printf(", \"exit_latency_ns\": %lld, \"target_residency_ns\": %lld",
	       (long long)s->exit_latency_ns,
	       (long long)s->target_residency_ns);
	printf(", \"flags\": [");
	if (s->flags)
		for (w = strtok(flags, ","); w; w = strtok(NULL, ","))
			printf("%s\"%s\"", w == flags ? "" : ", ", w);
	printf("], \"disabled\": %s, \"power\": ",
	       s->disabled ? "true" : "false");
	json_num(s->power);
	printf(", \"entry_energy\": ");
	json_num(s->entry_energy);
	printf("}");
}

static void print_json(const struct cstate_table *t)
{
	int i;

	printf("{\n  \"name\": ");
	json_str(t->name);
	printf(",\n  \"description\": ");
	json_str(t->description);
	printf(",\n  \"driver\": ");
	json_str(t->driver);
	printf(",\n  \"source\": ");
	json_str(t->source);
	printf(",\n  \"rule\": ");
	json_str(t->rule);
	printf(",\n  \"power_unit\": \"%s\",\n  \"states\": [\n",
	       unit_name(t->power_unit));
	for (i = 0; i < t->count; i++) {
		json_state(&t->states[i], i);
		printf("%s\n", i + 1 < t->count ? "," : "");
	}
	printf("  ]\n}\n");
}

static void print_list(enum fmt fmt)
{
	const struct cstate_table *const *l;

	if (fmt == FMT_CSV)
		printf("name,driver,states,description\n");
	else
		printf("%-26s %-11s %6s  %s\n", "NAME", "DRIVER", "STATES",
		       "DESCRIPTION");
	for (l = cstate_builtin_list(); *l; l++) {
		if (fmt == FMT_CSV) {
			printf("%s,%s,%d,", (*l)->name, (*l)->driver,
			       (*l)->count);
			csv_field((*l)->description);
			putchar('\n');
		} else {
			printf("%-26s %-11s %6d  %s\n", (*l)->name,
			       (*l)->driver, (*l)->count, (*l)->description);
		}
	}
}

/* Returns 0, or IDL_OPTS_* (message printed). */
static int parse_args(int argc, char **argv, struct opts *o)
{
	const struct idl_option opts[] = {
		IDL_OPT_FLAG(0, "sysfs", &o->sysfs,
			"read this machine's table (the default)"),
		IDL_OPT_PATH(0, "sysfs-root", &o->root, "DIR",
			"read sysfs below DIR instead of " CSTATE_SYSFS_ROOT),
		IDL_OPT_CPU(0, "cpu", &o->cpu, "N",
			"CPU whose states to read (default 0)"),
		IDL_OPT_STR(0, "machine", &o->machine, "NAME",
			"a built-in real table (see --list) or a table file"),
		IDL_OPT_PATH(0, "file", &o->file, "F",
			"a table file (doc/table-format.md)"),
		IDL_OPT_FLAG(0, "list", &o->list, "list the built-in tables"),
		IDL_OPT_OUTPUT(0, "save", &o->save, "FILE",
			"write the table to FILE as a table file"),
		IDL_OPT_CHOICE(0, "format", &o->fmt, "FMT",
			"text (default), csv or json", "text", "csv", "json"),
		IDL_OPT_END
	};
	const struct idl_cmdline cl = { .usage = states_usage, .opts = opts };
	int ret = idl_parse_options(argc, argv, &cl);

	if (ret < 0)
		return ret;
	/* the list is of the built-in tables, as text or CSV */
	if (o->list && (o->machine || o->file || o->sysfs || o->root ||
			o->cpu >= 0 || o->save || o->fmt == FMT_JSON)) {
		idl_usage_error("--list takes only --format text or csv");
		return IDL_OPTS_BAD;
	}
	if (o->root || o->cpu >= 0)
		o->sysfs = true;
	if (o->cpu < 0)
		o->cpu = 0;
	if (!!o->machine + !!o->file + o->sysfs > 1) {
		idl_usage_error("choose one of --machine, --file and "
				"--sysfs/--sysfs-root/--cpu");
		return IDL_OPTS_BAD;
	}
	return 0;
}

static int get_table(const struct opts *o, struct cstate_table *t,
		     struct idl_err *err)
{
	if (o->machine || o->file) {
		if (cstate_table_resolve(o->machine, o->file, t, err))
			return -1;
		/* re-check to show the kernel-style warnings of a file */
		if (o->file || !cstate_builtin_find(o->machine))
			return cstate_table_validate(t, o->file ? o->file :
						     o->machine, print_warning,
						     err);
		return 0;
	}
	if (cstate_sysfs_read(o->root, (unsigned int)o->cpu, t, err))
		return -1;
	cstate_sysfs_warn_mixed(o->root, (unsigned int)o->cpu, t);
	return 0;
}

int cmd_states(int argc, char **argv)
{
	struct opts o = { .cpu = -1, .fmt = FMT_TEXT };
	struct cstate_table t;
	struct idl_err err;
	int ret = parse_args(argc, argv, &o);

	if (ret < 0)
		return idl_opts_status(ret);
	if (o.list) {
		print_list(o.fmt);
		return IDL_EXIT_OK;
	}
	if (!o.machine && !o.file)
		o.sysfs = true;
	if (get_table(&o, &t, &err)) {
		idl_err_print(&err);
		return err.status;
	}
	if (o.save) {
		if (cstate_table_save(o.save, &t, &err)) {
			idl_err_print(&err);
			return err.status;
		}
		return IDL_EXIT_OK;
	}
	if (o.fmt == FMT_CSV)
		print_csv(&t);
	else if (o.fmt == FMT_JSON)
		print_json(&t);
	else
		print_text(&t, &o);
	return IDL_EXIT_OK;
}
