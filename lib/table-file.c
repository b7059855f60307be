// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * C-state table files: a small line-based text format that a user can
 * write by hand (doc/table-format.md).  Example:
 *
 *	name my-vm
 *	driver haltpoll
 *	power_unit none
 *	state 0 POLL 0 0 flags=polling desc="CPUIDLE CORE POLL IDLE"
 *	state 1 "haltpoll idle" 1 1
 *
 * Times are microseconds (up to 3 decimals) or carry an "ns"/"us" suffix.
 * Every error names the file and line.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "input.h"
#include "text.h"
#include "cstate.h"

#define MAX_TOKENS	16
#define TOKEN_LEN	256

struct parser {
	const char		*file;
	unsigned long		line;
	struct cstate_table	*t;
	unsigned long		state_line[CSTATE_MAX];
	unsigned long		header_line[6];
	bool			any_power;
	struct idl_err		*err;
};

/*
 * Split @s into whitespace-separated tokens.  Double quotes group
 * characters (also inside a token: desc="a b"); \" and \\ escape.
 * Returns the token count or -1 with the error set.
 */
static int tokenize(struct parser *p, const char *s,
		    char tok[MAX_TOKENS][TOKEN_LEN])
{
	int n = 0;
	size_t len;
	bool quoted;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#')
			return n;
		if (n == MAX_TOKENS)
			return idl_err_at_line(p->err, p->file, p->line,
					       "too many fields (max %d)",
					       MAX_TOKENS);
		len = 0;
		quoted = false;
		while (*s && (quoted || (*s != ' ' && *s != '\t'))) {
			char c = *s++;

			if (c == '"') {
				quoted = !quoted;
				continue;
			}
			if (quoted && c == '\\' && (*s == '"' || *s == '\\'))
				c = *s++;
			if (len + 1 >= TOKEN_LEN)
				return idl_err_at_line(p->err, p->file,
						       p->line,
						       "field longer than %d characters",
						       TOKEN_LEN - 1);
			tok[n][len++] = c;
		}
		if (quoted)
			return idl_err_at_line(p->err, p->file, p->line,
					       "unterminated quoted string");
		tok[n++][len] = '\0';
	}
}

/* Time: "12" / "1.5" (us), "1500ns", "12us".  Returns 0 or -1. */
static int parse_time(const char *s, int64_t *ns)
{
	char *end;
	long long whole, frac = 0;
	int digits = 0;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	whole = strtoll(s, &end, 10);
	if (errno || end == s || whole > INT64_MAX / 1000 - 1)
		return -1;
	if (!strcmp(end, "ns")) {
		*ns = whole;
		return 0;
	}
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (++digits > 3)
				return -1;
			frac = frac * 10 + (*end - '0');
		}
		if (!digits)
			return -1;
		while (digits++ < 3)
			frac *= 10;
	}
	if (*end && strcmp(end, "us"))
		return -1;
	*ns = whole * 1000 + frac;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v) || *v < 0)
		return -1;
	return 0;
}

static const char *const header_keys[] = {
	"name", "description", "driver", "source", "rule", "power_unit",
};

static int set_power_unit(struct parser *p, const char *v)
{
	if (!strcasecmp(v, "none"))
		p->t->power_unit = CSTATE_POWER_NONE;
	else if (!strcasecmp(v, "mW"))
		p->t->power_unit = CSTATE_POWER_MW;
	else if (!strcasecmp(v, "relative"))
		p->t->power_unit = CSTATE_POWER_RELATIVE;
	else
		return idl_err_at_line(p->err, p->file, p->line,
				       "power_unit must be none, mW or relative, not '%s'",
				       v);
	return 0;
}

static int header_line(struct parser *p, int k, char tok[][TOKEN_LEN],
		       int n)
{
	static const size_t max[] = { 64, 128, 32, 256, 256, 0 };
	char *dst[] = { p->t->name, p->t->description, p->t->driver,
			p->t->source, p->t->rule };
	char value[TOKEN_LEN * 2] = "";
	size_t len = 0;
	int i;

	if (p->header_line[k])
		return idl_err_at_line(p->err, p->file, p->line,
				       "'%s' given twice (first at line %lu)",
				       header_keys[k], p->header_line[k]);
	p->header_line[k] = p->line;
	if (n < 2)
		return idl_err_at_line(p->err, p->file, p->line,
				       "'%s' needs a value", header_keys[k]);
	/* unquoted words are joined by single spaces; snprintf returns
	 * the length it wanted, so stop once the buffer is full */
	for (i = 1; i < n && len < sizeof(value); i++)
		len += (size_t)snprintf(value + len, sizeof(value) - len,
					"%s%s", i > 1 ? " " : "", tok[i]);
	if (len >= sizeof(value))
		return idl_err_at_line(p->err, p->file, p->line,
				       "%s too long", header_keys[k]);
	if (k == 5)
		return set_power_unit(p, value);
	if (len >= max[k])
		return idl_err_at_line(p->err, p->file, p->line,
				       "%s too long (max %zu characters)",
				       header_keys[k], max[k] - 1);
	memcpy(dst[k], value, len + 1);
	return 0;
}

static int state_option(struct parser *p, struct cstate *s, const char *opt)
{
	const char *eq = strchr(opt, '=');
	const char *v = eq ? eq + 1 : "";
	size_t klen = eq ? (size_t)(eq - opt) : strlen(opt);

	if (!eq && !strcmp(opt, "disabled")) {
		s->disabled = true;
	} else if (eq && klen == 4 && !strncmp(opt, "desc", 4)) {
		if (strlen(v) >= CSTATE_DESC_LEN)
			return idl_err_at_line(p->err, p->file, p->line,
					       "desc too long (max %d characters)",
					       CSTATE_DESC_LEN - 1);
		strcpy(s->desc, v);
	} else if (eq && klen == 5 && !strncmp(opt, "flags", 5)) {
		if (cstate_flags_parse(v, &s->flags))
			return idl_err_at_line(p->err, p->file, p->line,
					       "bad flags '%s' (valid: polling, coupled, timer_stop, unusable, off, tlb_flushed, rcu_idle, none)",
					       v);
	} else if (eq && klen == 5 && !strncmp(opt, "power", 5)) {
		if (parse_double(v, &s->power))
			return idl_err_at_line(p->err, p->file, p->line,
					       "bad power '%s' (a non-negative number)",
					       v);
		p->any_power = true;
	} else if (eq && klen == 12 && !strncmp(opt, "entry_energy", 12)) {
		if (parse_double(v, &s->entry_energy))
			return idl_err_at_line(p->err, p->file, p->line,
					       "bad entry_energy '%s' (a non-negative number)",
					       v);
		p->any_power = true;
	} else {
		return idl_err_at_line(p->err, p->file, p->line,
				       "unknown state option '%s' (valid: desc=, flags=, disabled, power=, entry_energy=)",
				       opt);
	}
	return 0;
}

static int parse_index(struct parser *p, const char *s, int *idx)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		return idl_err_at_line(p->err, p->file, p->line,
				       "bad state index '%s'", s);
	if (v < 0 || v >= CSTATE_MAX)
		return idl_err_at_line(p->err, p->file, p->line,
				       "state index %ld out of range (0..%d)",
				       v, CSTATE_MAX - 1);
	if (p->state_line[v])
		return idl_err_at_line(p->err, p->file, p->line,
				       "duplicate state index %ld (first at line %lu)",
				       v, p->state_line[v]);
	/* every index below count is taken, so only gaps are left */
	if (v > p->t->count && p->t->count == 0)
		return idl_err_at_line(p->err, p->file, p->line,
				       "state %ld comes first: state 0 is missing",
				       v);
	if (v > p->t->count)
		return idl_err_at_line(p->err, p->file, p->line,
				       "state %ld follows state %d: state %d is missing",
				       v, p->t->count - 1, p->t->count);
	*idx = (int)v;
	return 0;
}

static int state_line(struct parser *p, char tok[][TOKEN_LEN], int n)
{
	struct cstate *s;
	int idx = 0, i;

	if (n < 5)
		return idl_err_at_line(p->err, p->file, p->line,
				       "state needs INDEX NAME LATENCY RESIDENCY");
	if (parse_index(p, tok[1], &idx))
		return -1;
	s = &p->t->states[idx];
	memset(s, 0, sizeof(*s));
	s->power = NAN;
	s->entry_energy = NAN;
	if (!tok[2][0] || strlen(tok[2]) >= CSTATE_NAME_LEN)
		return idl_err_at_line(p->err, p->file, p->line,
				       "state name '%s' must have 1..%d characters",
				       tok[2], CSTATE_NAME_LEN - 1);
	strcpy(s->name, tok[2]);
	if (parse_time(tok[3], &s->exit_latency_ns))
		return idl_err_at_line(p->err, p->file, p->line,
				       "bad latency '%s' (microseconds, or a number with ns/us suffix)",
				       tok[3]);
	if (parse_time(tok[4], &s->target_residency_ns))
		return idl_err_at_line(p->err, p->file, p->line,
				       "bad residency '%s' (microseconds, or a number with ns/us suffix)",
				       tok[4]);
	for (i = 5; i < n; i++)
		if (state_option(p, s, tok[i]))
			return -1;
	if (idx > 0 && (s->flags & CSTATE_POLLING))
		return idl_err_at_line(p->err, p->file, p->line,
				       "only state 0 may be a polling state");
	p->state_line[idx] = p->line;
	p->t->count = idx + 1;
	return 0;
}

static int parse_line(struct parser *p, const char *line)
{
	char tok[MAX_TOKENS][TOKEN_LEN];
	size_t k;
	int n;

	n = tokenize(p, line, tok);
	if (n <= 0)
		return n;
	if (!strcmp(tok[0], "state"))
		return state_line(p, tok, n);
	for (k = 0; k < sizeof(header_keys) / sizeof(header_keys[0]); k++)
		if (!strcmp(tok[0], header_keys[k]))
			return header_line(p, (int)k, tok, n);
	return idl_err_at_line(p->err, p->file, p->line,
			       "unknown keyword '%s' (valid: name, description, driver, source, rule, power_unit, state)",
			       tok[0]);
}

static void default_name(struct cstate_table *t, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n == 0)
		n = strlen(base);
	if (n >= sizeof(t->name))
		n = sizeof(t->name) - 1;
	memcpy(t->name, base, n);
	t->name[n] = '\0';
}

/* Names reach terminals, CSV and JSON: no escape sequences there. */
static void clean_names(struct cstate_table *t, const char *path)
{
	int i, n = idl_text_clean(t->name) + idl_text_clean(t->description) +
		   idl_text_clean(t->driver) + idl_text_clean(t->source) +
		   idl_text_clean(t->rule);

	for (i = 0; i < t->count; i++)
		n += idl_text_clean(t->states[i].name) +
		     idl_text_clean(t->states[i].desc);
	if (n)
		idl_warn("%s: %d control characters or bytes that are not "
			 "UTF-8 in names, shown as '?'", path, n);
}

static int finish(struct parser *p, const char *path)
{
	struct cstate_table *t = p->t;

	if (!t->count)
		return idl_err_set(p->err, IDL_EXIT_BADINPUT,
				   "%s: no states (need at least one 'state' line)",
				   path);
	if (p->any_power && t->power_unit == CSTATE_POWER_NONE)
		return idl_err_set(p->err, IDL_EXIT_BADINPUT,
				   "%s: power values need a 'power_unit mW|relative' line",
				   path);
	clean_names(t, path);
	if (!t->name[0])
		default_name(t, path);
	if (!t->source[0])
		snprintf(t->source, sizeof(t->source), "table file %s", path);
	return cstate_table_validate(t, path, NULL, p->err);
}

int cstate_table_load(const char *path, struct cstate_table *t,
		      struct idl_err *err)
{
	struct parser p = { .file = path, .t = t, .err = err };
	struct idl_lines l;
	FILE *f;
	int ret;

	memset(t, 0, sizeof(*t));
	f = idl_input_fopen(path, IDL_TABLE_MAX_SIZE, "a C-state table",
			    err);
	if (!f)
		return -1;
	if (idl_lines_init(&l, f, path, IDL_TABLE_MAX_LINE, err)) {
		fclose(f);
		return -1;
	}
	while ((ret = idl_lines_next(&l, err)) > 0) {
		p.line = l.no;
		l.buf[strcspn(l.buf, "\r")] = '\0';
		ret = parse_line(&p, l.buf);
		if (ret)
			break;
	}
	idl_lines_free(&l);
	fclose(f);
	return ret ? -1 : finish(&p, path);
}

/* Print a string quoted, escaping " and \. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void put_time(FILE *f, int64_t ns)
{
	if (ns % 1000 == 0)
		fprintf(f, " %lld", (long long)(ns / 1000));
	else
		fprintf(f, " %lldns", (long long)ns);
}

static void put_header(FILE *f, const char *key, const char *value)
{
	if (!value[0])
		return;
	fprintf(f, "%s ", key);
	put_quoted(f, value);
	fputc('\n', f);
}

int cstate_table_write(FILE *f, const struct cstate_table *t)
{
	static const char *const units[] = { "none", "mW", "relative" };
	char flags[128];
	int i;

	fprintf(f, "# idlelab C-state table (format: doc/table-format.md)\n");
	fprintf(f, "# state INDEX NAME LATENCY_US RESIDENCY_US [options]\n");
	put_header(f, "name", t->name);
	put_header(f, "description", t->description);
	put_header(f, "driver", t->driver);
	put_header(f, "source", t->source);
	put_header(f, "rule", t->rule);
	fprintf(f, "power_unit %s\n", units[t->power_unit]);
	for (i = 0; i < t->count; i++) {
		const struct cstate *s = &t->states[i];

		fprintf(f, "state %d ", i);
		put_quoted(f, s->name);
		put_time(f, s->exit_latency_ns);
		put_time(f, s->target_residency_ns);
		if (s->desc[0]) {
			fputs(" desc=", f);
			put_quoted(f, s->desc);
		}
		if (s->flags) {
			cstate_flags_format(s->flags, flags, sizeof(flags));
			fprintf(f, " flags=%s", flags);
		}
		if (s->disabled)
			fputs(" disabled", f);
		if (!isnan(s->power) && t->power_unit != CSTATE_POWER_NONE)
			fprintf(f, " power=%.10g", s->power);
		if (!isnan(s->entry_energy) &&
		    t->power_unit != CSTATE_POWER_NONE)
			fprintf(f, " entry_energy=%.10g", s->entry_energy);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static int write_table(FILE *f, void *t, struct idl_err *err)
{
	(void)err;
	return cstate_table_write(f, t);
}

int cstate_table_save(const char *path, const struct cstate_table *t,
		      struct idl_err *err)
{
	return idl_write_atomic(path, write_table, (void *)t, err);
}
