// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Merging per-CPU scores (integers only, so the result does not depend
 * on the order or on the number of threads) and the numbers derived from
 * them at the end (doc/scoring.md).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cpuidle-core.h"
#include "replay.h"

#define ADD(f)	(to->f += s->f)
#define ADDV(f)							\
	do {							\
		size_t k_;					\
		u64 *a_ = (u64 *)to->f;				\
		const u64 *b_ = (const u64 *)s->f;		\
		for (k_ = 0; k_ < sizeof(to->f) / sizeof(u64); k_++) \
			a_[k_] += b_[k_];			\
	} while (0)

static void stats_put(struct replay_stats *st, const char *name,
		      const char *key, s64 value, u32 cpus, u8 kind)
{
	struct replay_stat *x;
	u32 i;

	for (i = 0; i < st->n; i++) {
		x = &st->s[i];
		if (!strcmp(x->name, name) && !strcmp(x->key, key) &&
		    x->kind == kind) {
			x->value += value;
			x->cpus += cpus;
			return;
		}
	}
	if (st->n == IDL_STAT_MAX) {
		st->dropped++;
		return;
	}
	x = &st->s[st->n++];
	snprintf(x->name, sizeof(x->name), "%s", name);
	snprintf(x->key, sizeof(x->key), "%s", key);
	x->value = value;
	x->cpus = cpus;
	x->kind = kind;
}

void replay_stats_emit(void *ctx, const char *name, const char *key,
		       long long value, enum idl_stat_kind kind)
{
	char n[IDL_STAT_NAME_LEN], k[IDL_STAT_KEY_LEN];

	if (!name || !*name)
		return;
	/* cut first, so that names equal after the cut merge */
	snprintf(n, sizeof(n), "%s", name);
	snprintf(k, sizeof(k), "%s", key ? key : "");
	stats_put(ctx, n, k, value, 1,
		  kind == IDL_STAT_LAST ? IDL_STAT_LAST : IDL_STAT_SUM);
}

static void stats_add(struct replay_stats *to, const struct replay_stats *s)
{
	u32 i;

	for (i = 0; i < s->n && i < IDL_STAT_MAX; i++)
		stats_put(to, s->s[i].name, s->s[i].key, s->s[i].value,
			  s->s[i].cpus, s->s[i].kind);
	to->dropped += s->dropped;
}

void replay_score_add(struct replay_score *to, const struct replay_score *s)
{
	ADD(selects);
	ADD(sleep_exact);
	ADD(tick_exact);
	ADD(invalid);
	ADDV(entries);
	ADDV(residency_ns);
	ADDV(above);
	ADDV(below);
	ADDV(seg_hist);
	ADDV(vs);
	ADDV(vs_cause);
	ADDV(wake);
	ADD(excess_lat_ns);
	ADD(lat_violations);
	ADD(tick_wakeups);
	ADD(poll_limits);
	ADD(tick_stops);
	ADD(short_tick_stops);
	ADD(stop_denied);
	ADD(agree_n);
	ADD(agree_same);
	ADD(agree_faster);
	ADD(agree_tick_n);
	ADD(agree_tick_same);
	ADD(miss_n);
	ADD(agree_warmup);
	ADDV(miss);
	stats_add(&to->internals, &s->internals);
}

/*
 * @k selects of state @i, of time left in interval @j, ended by tally
 * cause @tc with miss class @m, where the oracle chose @o under the
 * constraint @lat_req.
 */
static void score_add(struct replay_score *sc, const struct replay_setup *s,
		      int j, int tc, int m, int i, int o, s64 lat_req, u64 k)
{
	s64 lat = s->table.states[i].exit_latency_ns;
	s64 olat = s->table.states[o].exit_latency_ns;
	int vs = i == o ? REPLAY_SAME : i > o ? REPLAY_DEEP : REPLAY_SHALLOW;
	int c = tc == REPLAY_TALLY_TICK ? WAKE_TICK : tc;

	sc->selects += k;
	sc->entries[i] += k;
	if (m == IDL_MISS_ABOVE)
		sc->above[i] += k;
	else if (m == IDL_MISS_BELOW)
		sc->below[i] += k;
	/* a segment until the period's end: its bin is the interval's (the
	 * others were counted as they ended) */
	if (tc != REPLAY_TALLY_TICK && tc != REPLAY_CAUSE_POLL)
		sc->seg_hist[s->cut_bin[j]] += k;
	sc->vs[vs][i] += k;
	sc->vs_cause[vs][c] += k;
	sc->wake[c][i] += k;
	if (lat > olat)
		sc->excess_lat_ns += k * (u64)(lat - olat);
	if (lat > lat_req)
		sc->lat_violations += k;
}

/* The tally's counts of one (interval @j, chosen state @i) pair. */
static void tally_pair(struct replay_score *sc, const struct replay_setup *s,
		       const replay_tally_row_t *t, int j, int i)
{
	int m, tc;

	for (m = 0; m < 3; m++)
		for (tc = 0; tc < REPLAY_TALLY_NCAUSE; tc++)
			if (t[j][tc][m][i])
				score_add(sc, s, j, tc, m, i, s->cut_orc[j],
					  s->latency_req, t[j][tc][m][i]);
}

int replay_score_one(struct replay_score *sc, const struct replay_setup *s,
		     s64 remain, int tc, int m, int i, s64 lat_req)
{
	int o = replay_oracle_state_lat(s, remain, lat_req);

	score_add(sc, s, replay_cut(s, remain), tc, m, i, o, lat_req, 1);
	return o;
}

/* Integer sums: the same counters as one increment per select gave. */
void replay_score_tally(struct replay_score *sc, const struct replay_setup *s,
			const replay_tally_row_t *t)
{
	int j, i;

	for (j = 0; j <= s->ncut; j++)
		for (i = 0; i < s->table.count; i++)
			tally_pair(sc, s, t, j, i);
}

/* The oracle's entry into @o for a period of @dur ns, as the tally adds. */
static void workload_oracle(struct replay_workload *wl,
			    const struct replay_setup *s, int o, u64 dur, u64 k)
{
	wl->oracle_res[o] += dur;
	wl->oracle_entries[o] += k;
	wl->oracle_lat_ns += k * (u64)s->table.states[o].exit_latency_ns;
}

void replay_workload_one(struct replay_workload *wl,
			 const struct replay_setup *s, s64 dur, int cause,
			 bool sleep_exact, bool tick_exact, s64 lat_req)
{
	int o = replay_oracle_state_lat(s, dur, lat_req);

	wl->sleep_exact += sleep_exact;
	wl->tick_exact += tick_exact;
	wl->merged++;
	wl->cause[cause]++;
	wl->hist[s->cut_bin[replay_cut(s, dur)]]++;
	workload_oracle(wl, s, o, (u64)dur, 1);
}

void replay_workload_tally(struct replay_workload *wl,
			   const struct replay_setup *s,
			   const replay_wtally_t t, const u64 *cut_ns)
{
	int j, c, i, x;

	for (j = 0; j <= s->ncut; j++)
		workload_oracle(wl, s, s->cut_orc[j], cut_ns[j], 0);

	for (j = 0; j <= s->ncut; j++)
		for (c = 0; c < WAKE_CAUSE_COUNT; c++)
			for (x = 0; x < 4; x++) {
				u64 k = t[j][c][x >> 1][x & 1];

				wl->sleep_exact += x >> 1 ? k : 0;
				wl->tick_exact += x & 1 ? k : 0;
				wl->merged += k;
				wl->cause[c] += k;
				wl->hist[s->cut_bin[j]] += k;
				workload_oracle(wl, s, s->cut_orc[j], 0, k);
			}
	for (i = 0; i < s->table.count; i++)
		wl->idle_ns += wl->oracle_res[i];
}

void replay_workload_add(struct replay_workload *to,
			 const struct replay_workload *s)
{
	ADD(recorded);
	ADD(merged);
	ADD(bad);
	ADD(idle_ns);
	ADDV(cause);
	ADDV(hist);
	ADD(sleep_exact);
	ADD(tick_exact);
	ADDV(oracle_entries);
	ADDV(oracle_res);
	ADD(oracle_lat_ns);
	ADD(known_state);
	ADD(parts_dropped);
	ADD(kernel_above);
	ADD(kernel_below);
	ADD(qos_periods);
}

/*
 * Exit latencies take only the table's values, so the per-state wakeup
 * counts are an exact histogram: percentiles are exact (nearest rank).
 */
void replay_latency_of(const struct replay_setup *s,
		       const struct replay_score *sc, int cause,
		       struct replay_latency *l)
{
	u64 cnt[CSTATE_MAX] = { 0 };
	int order[CSTATE_MAX], i, j, n = s->table.count;
	u64 r50, r99, cum = 0;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < n; i++) {
		int c;

		for (c = 0; c < REPLAY_NCAUSE; c++)
			if (cause == REPLAY_NCAUSE || cause == c)
				cnt[i] += sc->wake[c][i];
		l->n += cnt[i];
		l->total_ns += cnt[i] *
			(u64)s->table.states[i].exit_latency_ns;
		order[i] = i;
	}
	if (!l->n)
		return;
	l->mean_ns = (double)l->total_ns / (double)l->n;
	/* insertion sort by exit latency (at most 10 states) */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && s->table.states[order[j - 1]].exit_latency_ns >
				     s->table.states[order[j]].exit_latency_ns; j--) {
			int t = order[j];

			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	r50 = (l->n * 50 + 99) / 100;
	r99 = (l->n * 99 + 99) / 100;
	l->p50_ns = l->p99_ns = -1;
	for (i = 0; i < n; i++) {
		s64 lat = s->table.states[order[i]].exit_latency_ns;

		if (!cnt[order[i]])
			continue;
		cum += cnt[order[i]];
		if (l->p50_ns < 0 && cum >= r50)
			l->p50_ns = lat;
		if (l->p99_ns < 0 && cum >= r99)
			l->p99_ns = lat;
		l->max_ns = lat;
	}
}

const char *const replay_miss_name[3] = { "none", "above", "below" };

const char *replay_cause_name(int c)
{
	return c == REPLAY_CAUSE_POLL ? "poll-limit" :
		wake_cause_name((enum wake_cause)c);
}

const char *replay_latency_text(s64 latency_req, char *buf, size_t len)
{
	if (latency_req >= NO_CONSTRAINT_NS)
		snprintf(buf, len, "no latency limit");
	else
		snprintf(buf, len, "latency limit %lld ns",
			 (long long)latency_req);
	return buf;
}
