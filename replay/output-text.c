// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The text scorecard of a replay: one table per trace, governors as
 * columns; its numbers come through the visitor of output.c, the one
 * CSV and JSON use, so the three cannot drift apart.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "events.h"
#include "output.h"
#include "text.h"

#define COLW	13

static void row_head(FILE *f, const char *label)
{
	fprintf(f, "%-30s", label);
}

/* Inputs that the trace's events could not give exactly. */
static void text_estimated(FILE *f, const struct replay_setup *s)
{
	static const struct { int ev; const char *what; } need[] = {
		{ EV_SCHED_SWITCH, "idle-loop ends (tick stopped)" },
		{ EV_TICK_STOP, "tick stops" },
		{ EV_HRTIMER_START, "hrtimers (sleep length, tick)" },
		{ EV_TIMER_START, "timer-wheel timers (sleep length)" },
	};
	const char *sep = "  estimated for want of events: ";
	size_t i;

	if (!s->events_seen)
		return;
	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++) {
		if (s->events_seen & (1U << need[i].ev))
			continue;
		fprintf(f, "%s%s", sep, need[i].what);
		sep = ", ";
	}
	if (*sep == ',')
		fputc('\n', f);
}

/* The governor live at capture: its tunables and who runs with them. */
static void text_live(FILE *f, const struct replay_trace *tr)
{
	const struct replay_setup *s = &tr->setup;
	const char *sep = "";
	int gi;

	if (!tr->meta.governor[0])
		return;
	fprintf(f, "  live governor %s: tunables %s", tr->meta.governor,
		tr->meta.governor_params[0] ? tr->meta.governor_params :
		"not recorded (defaults assumed)");
	for (gi = 0; gi < s->ngov; gi++) {
		if (!s->capture_tunables[gi])
			continue;
		fprintf(f, "%s%s", *sep ? ", " : "; the capture's tunables in ",
			s->gov[gi].spec);
		sep = ",";
	}
	fputc('\n', f);
	text_estimated(f, s);
}

/* A plugin's spec without its directory: "/a/b/teo.so:x=1" -> "teo.so:x=1" */
static const char *spec_base(const char *spec)
{
	const char *colon = strchr(spec, ':'), *p = spec, *slash;

	while ((slash = strchr(p, '/')) && (!colon || slash < colon))
		p = slash + 1;
	return p;
}

/*
 * Column labels: the spec; without its directory when too wide; "#N"
 * (explained above the table) when that is still too wide or would not
 * tell two columns apart.
 */
static const char *column_label(const struct replay_setup *s, int gi,
				 char *buf, size_t len)
{
	const char *b = spec_base(s->gov[gi].spec);
	int gj;

	if (strlen(s->gov[gi].spec) <= COLW)
		return s->gov[gi].spec;
	for (gj = 0; gj < s->ngov; gj++)
		if (gj != gi && !strcmp(spec_base(s->gov[gj].spec), b))
			break;
	if (strlen(b) <= COLW && gj == s->ngov)
		return b;
	snprintf(buf, len, "#%d", gi + 1);
	return buf;
}

static void text_columns(FILE *f, const struct replay_setup *s)
{
	char buf[16];
	int gi;

	for (gi = 0; gi < s->ngov; gi++) {
		const char *l = column_label(s, gi, buf, sizeof(buf));

		if (l != s->gov[gi].spec)
			fprintf(f, "  column %s: %s\n", l, s->gov[gi].spec);
	}
	fprintf(f, "\n%-30s", "");
	for (gi = 0; gi < s->ngov; gi++)
		fprintf(f, " %*s", COLW, column_label(s, gi, buf, sizeof(buf)));
	fputc('\n', f);
}

static void text_header(FILE *f, const struct replay_trace *tr)
{
	const struct replay_setup *s = &tr->setup;
	const struct replay_workload *wl = &tr->wl;
	char lat[48];
	int gi;

	replay_latency_text(s->latency_req, lat, sizeof(lat));
	fprintf(f, "replay of %s\n", tr->shown);
	fprintf(f, "  table: %s, %s; %u CPU%s; tick %lld ns%s; %s; live "
		"governor %s\n", s->table.name,
		s->own_table ? "the trace's own" : "what-if", tr->ncpu,
		tr->ncpu == 1 ? "" : "s",
		(long long)s->tick_nsec, s->own_hz ? "" : " (what-if grid)",
		lat, tr->meta.governor[0] ? tr->meta.governor : "unknown");
	text_live(f, tr);
	fprintf(f, "  %llu recorded periods -> %llu idle periods (%llu skipped), "
		"%.3f s idle\n", (unsigned long long)wl->recorded,
		(unsigned long long)wl->merged, (unsigned long long)wl->bad,
		(double)wl->idle_ns * 1e-9);
	if (wl->qos_periods)
		fprintf(f, "  %llu idle periods under a recorded PM QoS "
			"constraint other than the limit above (governors, "
			"oracle and violations use theirs)\n",
			(unsigned long long)wl->qos_periods);
	if (wl->merged)
		fprintf(f, "  sleep length exact %.1f%%, delta_tick exact "
			"%.1f%% of idle periods\n",
			replay_pct(wl->sleep_exact, wl->merged),
			replay_pct(wl->tick_exact, wl->merged));
	fprintf(f, "  energy model: %s (%s)", tr->energy.model ==
		REPLAY_ENERGY_TABLE ? "the table's power data" :
		"derived from the table", tr->energy.unit);
	if (tr->energy.model == REPLAY_ENERGY_DERIVED)
		fprintf(f, ", transition cost scale %.4g", tr->energy.kappa);
	fputc('\n', f);
	if (tr->damage[0])
		fprintf(f, "  warning: %s\n", tr->damage);
	for (gi = 0; gi < s->ngov; gi++)
		if (tr->failed[gi])
			fprintf(f, "  no numbers for %s\n", tr->failed[gi]);
	text_columns(f, s);
}

struct text_ctx {
	const char	*metric, *key;
	double		v;
	bool		found, is_int;
};

static void text_find(void *p, const char *metric, const char *key,
		      double v, bool is_int)
{
	struct text_ctx *c = p;

	if (c->found || strcmp(metric, c->metric))
		return;
	if ((c->key == NULL) != (key == NULL) ||
	    (key && strcmp(key, c->key)))
		return;
	c->v = v;
	c->is_int = is_int;
	c->found = true;
}

#define PREC_AUTO	(-1)	/* one number of decimals for the row */

static bool text_value(const struct replay_trace *tr, int gi,
		       const char *metric, const char *key, double *v)
{
	struct text_ctx c = { metric, key, 0, false, false };

	replay_visit_column(tr, gi, &tr->total[gi], &tr->wl, text_find, &c);
	*v = c.v;
	return c.found && !isnan(c.v);
}

/* Decimals that show 4 significant digits of the row's largest value. */
static int row_prec(const struct replay_trace *tr, const char *metric,
		    const char *key)
{
	double v, max = 0;
	int gi, prec = 3;

	for (gi = 0; gi < tr->setup.ngov; gi++)
		if (text_value(tr, gi, metric, key, &v) && fabs(v) > max)
			max = fabs(v);
	for (; prec > 0 && max >= 10; max /= 10)
		prec--;
	return prec;
}

static void text_row(FILE *f, const struct replay_trace *tr,
		     const char *label, const char *metric, const char *key,
		     int prec)
{
	double v;
	int gi;

	if (prec == PREC_AUTO)
		prec = row_prec(tr, metric, key);
	row_head(f, label);
	for (gi = 0; gi < tr->setup.ngov; gi++) {
		if (text_value(tr, gi, metric, key, &v))
			fprintf(f, " %*.*f", COLW, prec, v);
		else
			fprintf(f, " %*s", COLW, "-");
	}
	fputc('\n', f);
}

/*
 * Disagreements that a PM QoS latency constraint the trace does not show
 * would explain: at least 10 and 1% of the entries, nine in ten of them
 * the kernel in a state of lower exit latency, no --latency-req.
 */
static void text_qos_hint(FILE *f, const struct replay_trace *tr)
{
	const struct replay_setup *s = &tr->setup;
	int gi;

	if (s->latency_fixed)
		return;
	for (gi = 0; gi < s->ngov; gi++) {
		const struct replay_score *sc = &tr->total[gi];
		u64 dis = sc->agree_n - sc->agree_same;

		if (!s->follows[gi] || dis < 10 || dis * 100 < sc->agree_n ||
		    sc->agree_faster * 10 < dis * 9)
			continue;
		fprintf(f, "  hint: in %llu of the %llu disagreements of %s "
			"the kernel chose a state of lower exit latency,\n"
			"        as a PM QoS latency constraint makes it "
			"(cyclictest and tuned hold one);\n"
			"        capture power:pm_qos_update_target with the "
			"pm_qos_* and dev_pm_qos_* request events,\n"
			"        or try --latency-req\n",
			(unsigned long long)sc->agree_faster,
			(unsigned long long)dis, s->gov[gi].spec);
	}
}

static void text_states(FILE *f, const struct replay_trace *tr)
{
	const struct cstate_table *t = &tr->setup.table;
	char label[64];
	int i;

	for (i = 0; i < t->count; i++) {
		snprintf(label, sizeof(label), "  residency %% %s",
			 t->states[i].name);
		text_row(f, tr, label, "residency_pct", t->states[i].name,
			 2);
	}
	for (i = 0; i < t->count; i++) {
		snprintf(label, sizeof(label), "  entries %s",
			 t->states[i].name);
		text_row(f, tr, label, "entries", t->states[i].name, 0);
	}
}

/* Mean exit latency by wake cause, for the causes that occurred. */
static void text_causes(FILE *f, const struct replay_trace *tr)
{
	char label[64];
	int c, gi, i;

	for (c = 0; c < REPLAY_NCAUSE; c++) {
		u64 n = 0;

		for (gi = 0; gi < tr->setup.ngov; gi++)
			for (i = 0; i < tr->setup.table.count; i++)
				n += tr->total[gi].wake[c][i];
		if (!n)
			continue;
		snprintf(label, sizeof(label), "  mean ns, %s wakeups",
			 replay_cause_name(c));
		text_row(f, tr, label, "latency_mean_ns", replay_cause_name(c), 1);
	}
}

/* Has a column before @gi, or @gi before @i, a row for this counter? */
static bool text_internal_seen(const struct replay_trace *tr, int gi, u32 i)
{
	const struct replay_stat *x = &tr->total[gi].internals.s[i];
	int g;
	u32 j;

	for (g = 0; g <= gi; g++) {
		const struct replay_stats *st = &tr->total[g].internals;

		for (j = 0; j < (g == gi ? i : st->n); j++)
			if (!strcmp(st->s[j].name, x->name) &&
			    !strcmp(st->s[j].key, x->key))
				return true;
	}
	return false;
}

/* A SUM counter that is 0 (or absent) in every column: not worth a row. */
static bool text_internal_zero(const struct replay_trace *tr,
			       const struct replay_stat *x)
{
	int gi;
	u32 j;

	if (x->kind != IDL_STAT_SUM)
		return false;
	for (gi = 0; gi < tr->setup.ngov; gi++) {
		const struct replay_stats *st = &tr->total[gi].internals;

		for (j = 0; j < st->n; j++)
			if (!strcmp(st->s[j].name, x->name) &&
			    !strcmp(st->s[j].key, x->key) && st->s[j].value)
				return false;
	}
	return true;
}

/* One row per counter any column reported, in the order first seen;
 * SUM counters that stayed 0 everywhere are left out. */
static void text_internals(FILE *f, const struct replay_trace *tr)
{
	char label[64], key[IDL_STAT_NAME_LEN + IDL_STAT_KEY_LEN + 1];
	bool head = false;
	int gi;
	u32 i;

	for (gi = 0; gi < tr->setup.ngov; gi++) {
		const struct replay_stats *st = &tr->total[gi].internals;

		for (i = 0; i < st->n; i++) {
			const struct replay_stat *x = &st->s[i];

			if (text_internal_seen(tr, gi, i) ||
			    text_internal_zero(tr, x))
				continue;
			if (!head)
				fputs("governor internals (LAST: mean of "
				      "CPUs)\n", f);
			head = true;
			snprintf(key, sizeof(key), "%s%s%s", x->name,
				 x->key[0] ? "/" : "", x->key);
			snprintf(label, sizeof(label), "  %s%s%s", x->name,
				 x->key[0] ? " " : "", x->key);
			text_row(f, tr, label, "internals", key,
				 x->kind == IDL_STAT_LAST ? 1 : 0);
		}
	}
}

void replay_text_card(FILE *f, const struct replay_trace *tr)
{
	text_header(f, tr);
	text_row(f, tr, "selects (incl. re-selections)", "selects", NULL, 0);
	text_states(f, tr);
	fputs("misprediction, kernel rule\n", f);
	text_row(f, tr, "  above (too deep) %", "above_pct", NULL, 2);
	text_row(f, tr, "  below (too shallow) %", "below_pct", NULL,
		 2);
	fputs("against the oracle\n", f);
	text_row(f, tr, "  same %", "vs_oracle", "same_pct", 2);
	text_row(f, tr, "  too deep %", "vs_oracle", "too_deep_pct",
		 2);
	text_row(f, tr, "  too shallow %", "vs_oracle", "too_shallow_pct",
		 2);
	fputs("exit latency (all wakeups)\n", f);
	text_row(f, tr, "  mean ns", "latency_mean_ns", "all", 1);
	text_row(f, tr, "  p50 ns", "latency_p50_ns", "all", 0);
	text_row(f, tr, "  p99 ns", "latency_p99_ns", "all", 0);
	text_row(f, tr, "  max ns", "latency_max_ns", "all", 0);
	text_row(f, tr, "  total ns", "latency_total_ns", "all", 0);
	text_causes(f, tr);
	text_row(f, tr, "  excess over oracle ns", "latency_excess_ns", NULL,
		 0);
	text_row(f, tr, "  latency_req violations", "latency_req_violations",
		 NULL, 0);
	fprintf(f, "energy (%s)\n", tr->energy.unit);
	text_row(f, tr, "  energy", "energy", NULL, PREC_AUTO);
	text_row(f, tr, "  regret vs oracle %", "energy_regret_pct", NULL,
		 2);
	fputs("tick\n", f);
	text_row(f, tr, "  kept, period outlasted it", "tick_wakeups", NULL,
		 0);
	text_row(f, tr, "  stopped for < 1 tick", "tick_stops_short", NULL,
		 0);
	text_row(f, tr, "  poll time limit wakeups", "poll_limit_wakeups",
		 NULL, 0);
	if (tr->setup.own_table && tr->wl.known_state) {
		fprintf(f, "agreement with the kernel (live: %s)\n",
			tr->meta.governor[0] ? tr->meta.governor : "unknown");
		text_row(f, tr, "  recorded entries", "agreement_entries",
			 NULL, 0);
		text_row(f, tr, "  warm-up entries (not scored)",
			 "agreement_warmup", NULL, 0);
		text_row(f, tr, "  same state as recorded %", "agreement_pct",
			 NULL, 2);
		text_row(f, tr, "  same tick stop %",
			 "agreement_tick_pct", NULL, 2);
		if (tr->setup.miss_recorded)
			text_row(f, tr, "  same miss class %",
				 "miss_agreement_pct", NULL, 2);
		text_qos_hint(f, tr);
	}
	text_internals(f, tr);
	fputc('\n', f);
}
