// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The C-state table model: conversion to a cpuidle driver, validation,
 * built-in lookup and resolution of --machine / --states options.
 *
 * cstate_table_to_driver() fills a struct cpuidle_driver the way the
 * kernel's driver registration does (both the ns and the us forms of the
 * latency and residency, the flags).  The driver has no per-state
 * "disabled" field: in the kernel that lives in the per-device
 * cpuidle_state_usage.  Callers therefore MUST copy it themselves, e.g.
 *
 *	for (i = 0; i < t->count; i++)
 *		dev->states_usage[i].disable = t->states[i].disabled ?
 *			CPUIDLE_STATE_DISABLED_BY_USER : 0;
 *
 * so that the governor skips the states the table marks disabled, as
 * the kernel does for CPUIDLE_FLAG_OFF states and user-disabled ones.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cstate.h"

void cstate_table_to_driver(const struct cstate_table *t,
			    struct cpuidle_driver *drv)
{
	int i;

	memset(drv, 0, sizeof(*drv));
	drv->name = t->driver;
	drv->state_count = t->count;
	for (i = 0; i < t->count && i < CPUIDLE_STATE_MAX; i++) {
		const struct cstate *c = &t->states[i];
		struct cpuidle_state *s = &drv->states[i];

		snprintf(s->name, sizeof(s->name), "%s", c->name);
		snprintf(s->desc, sizeof(s->desc), "%s", c->desc);
		s->exit_latency_ns = c->exit_latency_ns;
		s->target_residency_ns = c->target_residency_ns;
		/* the kernel keeps us forms rounded down from the ns values */
		s->exit_latency = (unsigned int)(c->exit_latency_ns /
						 NSEC_PER_USEC);
		s->target_residency = (unsigned int)(c->target_residency_ns /
						     NSEC_PER_USEC);
		s->flags = c->flags;
	}
}

static const struct {
	unsigned int bit;
	const char *word;
} flag_words[] = {
	{ CSTATE_POLLING, "polling" },
	{ CSTATE_COUPLED, "coupled" },
	{ CSTATE_TIMER_STOP, "timer_stop" },
	{ CSTATE_UNUSABLE, "unusable" },
	{ CSTATE_OFF, "off" },
	{ CSTATE_TLB_FLUSHED, "tlb_flushed" },
	{ CSTATE_RCU_IDLE, "rcu_idle" },
};

#define N_FLAG_WORDS (sizeof(flag_words) / sizeof(flag_words[0]))

int cstate_flags_format(unsigned int flags, char *buf, size_t len)
{
	size_t i, n = 0;

	if (!len)
		return -1;
	buf[0] = '\0';
	for (i = 0; i < N_FLAG_WORDS; i++) {
		if (!(flags & flag_words[i].bit))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
				      n ? "," : "", flag_words[i].word);
	}
	if (!n)
		n = (size_t)snprintf(buf, len, "none");
	return n < len ? 0 : -1;
}

/* Accepts "a,b,c" (also '|' as separator) and "none". */
int cstate_flags_parse(const char *s, unsigned int *flags)
{
	char word[32];
	size_t i, n;

	*flags = 0;
	while (*s) {
		n = strcspn(s, ",|");
		if (n == 0 || n >= sizeof(word))
			return -1;
		memcpy(word, s, n);
		word[n] = '\0';
		s += n;
		if (*s)
			s++;
		if (!strcasecmp(word, "none"))
			continue;
		for (i = 0; i < N_FLAG_WORDS; i++)
			if (!strcasecmp(word, flag_words[i].word))
				break;
		if (i == N_FLAG_WORDS)
			return -1;
		*flags |= flag_words[i].bit;
	}
	return 0;
}

static void warnf(void (*warn)(const char *msg), const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warnf(void (*warn)(const char *msg), const char *fmt, ...)
{
	char msg[300];
	va_list ap;

	if (!warn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn(msg);
}

static int validate_state(const struct cstate_table *t, int i,
			  const char *file, struct idl_err *err)
{
	const struct cstate *s = &t->states[i];

	if (!s->name[0])
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: state %d has no name", file, i);
	if (s->exit_latency_ns < 0 || s->target_residency_ns < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: state %d (%s): negative exit latency or target residency",
				   file, i, s->name);
	if (s->power < 0 || s->entry_energy < 0)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: state %d (%s): negative power or entry energy",
				   file, i, s->name);
	if (i > 0 && (s->flags & CSTATE_POLLING))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: state %d (%s): only state 0 may be a polling state",
				   file, i, s->name);
	return 0;
}

int cstate_table_validate(const struct cstate_table *t, const char *file,
			  void (*warn)(const char *msg), struct idl_err *err)
{
	int i;

	if (!file)
		file = t->name;
	if (t->count < 1 || t->count > CSTATE_MAX)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "%s: %d states (a table needs 1..%d)",
				   file, t->count, CSTATE_MAX);
	for (i = 0; i < t->count; i++)
		if (validate_state(t, i, file, err))
			return -1;
	/* The kernel accepts these; governors just behave oddly. */
	for (i = 0; i < t->count; i++) {
		const struct cstate *s = &t->states[i];

		if (s->exit_latency_ns > s->target_residency_ns)
			warnf(warn, "%s: state %d (%s): exit latency %lld ns > target residency %lld ns",
			      file, i, s->name, (long long)s->exit_latency_ns,
			      (long long)s->target_residency_ns);
		if (i > 0 && s->target_residency_ns <
			     t->states[i - 1].target_residency_ns)
			warnf(warn, "%s: state %d (%s): target residency below state %d's (states not ordered)",
			      file, i, s->name, i - 1);
	}
	return 0;
}

const struct cstate_table *cstate_builtin_find(const char *name)
{
	const struct cstate_table *const *l;

	for (l = cstate_builtin_list(); *l; l++)
		if (!strcmp((*l)->name, name))
			return *l;
	return NULL;
}

/* Edit distance, case-insensitive; short names only. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev, tmp;

	if (la > 64 || lb > 64)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = (a[i - 1] | 0x20) != (b[j - 1] | 0x20);

			tmp = row[j];
			row[j] = prev + cost;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Closeness of table @c to @name: edit distance, limit + 1 when one
 * name contains the other, limit + 2 when the description contains
 * @name ("skylake"); -1 when not close. */
static int closeness(const char *name, const struct cstate_table *c,
		     size_t limit)
{
	size_t dist = edit_distance(name, c->name);

	if (dist <= limit)
		return (int)dist;
	if (strcasestr(c->name, name) ||
	    (strlen(c->name) >= 3 && strcasestr(name, c->name)))
		return (int)limit + 1;
	if (strlen(name) >= 3 && strcasestr(c->description, name))
		return (int)limit + 2;
	return -1;
}

/* "did you mean" list, closest first, at most 8 names. */
static void suggest(const char *name, char *buf, size_t len)
{
	const struct cstate_table *const *l;
	size_t n = 0, limit = strlen(name) / 3 + 1;
	int shown = 0, level;

	buf[0] = '\0';
	for (level = 0; level <= (int)limit + 2; level++) {
		for (l = cstate_builtin_list(); *l && shown < 8; l++) {
			if (closeness(name, *l, limit) != level)
				continue;
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
					      "%s%s", shown ? ", " : "",
					      (*l)->name);
			shown++;
		}
	}
}

static int count_builtin(void)
{
	const struct cstate_table *const *l;
	int n = 0;

	for (l = cstate_builtin_list(); *l; l++)
		n++;
	return n;
}

/*
 * @file wins; otherwise @machine is a built-in name or, failing that, a
 * path; with neither, this machine's cpu 0 from sysfs.  Unknown names
 * get a "did you mean" list (exit status 2).
 */
int cstate_table_resolve(const char *machine, const char *file,
			 struct cstate_table *t, struct idl_err *err)
{
	const struct cstate_table *b;
	char close[300];

	if (file)
		return cstate_table_load(file, t, err);
	if (!machine)
		return cstate_sysfs_read(CSTATE_SYSFS_ROOT, 0, t, err);
	b = cstate_builtin_find(machine);
	if (b) {
		*t = *b;
		return 0;
	}
	if (strchr(machine, '/') || access(machine, F_OK) == 0)
		return cstate_table_load(machine, t, err);
	suggest(machine, close, sizeof(close));
	if (close[0])
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "unknown machine '%s'; did you mean: %s? ('idlelab states --list' shows all %d)",
				   machine, close, count_builtin());
	return idl_err_set(err, IDL_EXIT_BADINPUT,
			   "unknown machine '%s' and no such table file; 'idlelab states --list' shows the %d built-in tables",
			   machine, count_builtin());
}
