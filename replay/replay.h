/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay engine: runs several governors over exactly the same
 * recorded idle periods of one CPU and scores each of them.
 *
 * The core is streaming: replay_cpu_feed() takes one recorded
 * struct idle_period at a time (replay_cpu_feed_batch() several), merges
 * the governor-made wakeups the kernel recorded (tick and poll-limit
 * wakeups followed by a re-entry) into the workload's real idle period,
 * and simulates every governor's idle loop over it.  No allocation per
 * period; memory is fixed per CPU.
 * doc/replay.md describes the model, doc/scoring.md every number.
 */
#ifndef IDLELAB_REPLAY_H
#define IDLELAB_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <idlelab/governor.h>

#include "cstate.h"
#include "error.h"
#include "explain.h"
#include "trace.h"

#define REPLAY_MAX_GOV		16
/*
 * Agreement with the kernel (follow.c, doc/scoring.md): a capture that
 * begins with the governor running does not show its state.  Copies of
 * it started at a CPU's first REPLAY_FOLLOW_COPIES recorded entries run
 * through the first REPLAY_WARMUP; the one that agreed most with the
 * kernel over the entries all saw goes on, and only the entries after
 * the warm-up are scored (all of a CPU with no more than the warm-up).
 * After a disagreement the scored copy may hold what the kernel does
 * not: copies restarted at the next entries replace it if one agrees
 * more over the REPLAY_WARMUP entries that follow.
 */
#define REPLAY_FOLLOW_COPIES	8
#define REPLAY_WARMUP		64
/*
 * And one more copy, primed: before the warm-up it is run over the
 * CPU's first REPLAY_PRIME recorded entries (told each, as any copy),
 * then starts at entry 0 beside the others.  What a governor learns
 * slowly (menu's correction factor of a bucket it rarely uses loses
 * 1/8 of its error per update) is then about where a kernel that ran
 * the same workload before the trace had it.  It goes on only if it
 * agreed more than every copy started fresh.
 */
#define REPLAY_PRIMED		REPLAY_FOLLOW_COPIES	/* its slot */
#define REPLAY_KCOPIES		(REPLAY_FOLLOW_COPIES + 1)
#define REPLAY_PRIME		1024
/* disagreements of the scored copy that end a window early */
#define REPLAY_OUT_OF_STEP	3
/* wake causes: the trace's, plus the poll time limit of the simulation */
#define REPLAY_CAUSE_POLL	WAKE_CAUSE_COUNT

/* Names used in explain lines and results: wake causes (plus the poll
 * limit) and the kernel rule's miss classes (enum idl_miss order). */
const char *replay_cause_name(int c);
extern const char *const replay_miss_name[3];
#define REPLAY_NCAUSE		(WAKE_CAUSE_COUNT + 1)
#define REPLAY_DEFAULT_MERGE_GAP_NS	20000
/* no latency limit: the default PM QoS request, 2e9 us */
#define NO_CONSTRAINT_NS	2000000000000LL
/* "no latency limit" or "latency limit N ns", in @buf */
const char *replay_latency_text(s64 latency_req, char *buf, size_t len);
/* recorded parts of one workload period kept for agreement/inputs */
#define REPLAY_MAX_PARTS	32
/*
 * Intervals between the residencies the oracle's rule and the state bins
 * compare a duration with (replay_cut()): at most CSTATE_MAX - 1 each.
 */
#define REPLAY_NCUT		(2 * CSTATE_MAX - 1)

/* classification of a choice against the oracle's */
enum replay_vs {
	REPLAY_SAME = 0,
	REPLAY_DEEP,		/* deeper than the oracle: too deep */
	REPLAY_SHALLOW,		/* shallower than the oracle: too shallow */
	REPLAY_NVS
};

/* Everything fixed for the replay of one trace (shared read-only). */
struct replay_setup {
	struct cstate_table	table;		/* the replayed table */
	struct cpuidle_driver	drv;		/* filled from @table */
	bool		own_table;	/* recorded states index @table */
	s64		tick_nsec;
	bool		own_hz;		/* recorded delta_tick is usable */
	s64		latency_req;	/* the trace's, or --latency-req */
	bool		latency_fixed;	/* --latency-req: over the periods' */
	u64		disabled;	/* bit i: state i disabled */
	s64		merge_gap_ns;
	int		ngov;
	struct idl_governor gov[REPLAY_MAX_GOV];
	/* columns that are the governor live at capture, with its tunables:
	 * their agreement with the kernel is measured (follow.c) */
	bool		follows[REPLAY_MAX_GOV];
	/* ... whose tunables were taken from the trace */
	bool		capture_tunables[REPLAY_MAX_GOV];
	int		nfollow;
	/* columns run elsewhere (a plugin's, in its own process) */
	bool		skip[REPLAY_MAX_GOV];
	bool		miss_recorded;	/* the trace has cpu_idle_miss */
	/* IP_POLL_LIMIT tells how the kernel's polls ended (the capture
	 * showed it), not a guess from the default poll time limit */
	bool		poll_ends_seen;
	/* the trace's periods less the kernel's measure of them, ns (its
	 * residency_lag_ns, 0 if not known): what the agreement copies are
	 * told the kernel measured */
	s64		residency_lag_ns;
	uint32_t	events_seen;	/* trace_meta.events_seen */
	/* derived at setup */
	int		nok;		/* allowed states (enabled, latency) */
	int		ok[CSTATE_MAX];	/* their indices, shallow to deep */
	s64		ok_res[CSTATE_MAX];	/* ... their target residencies */
	int		nen;		/* enabled states, whatever latency */
	int		en[CSTATE_MAX];	/* (for a period's own constraint) */
	s64		bin_res[CSTATE_MAX];	/* target residency of state i */
	/* the same two rules by table: the distinct target residencies in
	 * ascending order, and the oracle's state and the bin of the
	 * durations from each one to the next (replay_cut()) */
	int		ncut;
	s64		cut[REPLAY_NCUT];	/* cut[ncut]: INT64_MAX */
	uint8_t		cut_orc[REPLAY_NCUT];
	uint8_t		cut_bin[REPLAY_NCUT];
	uint8_t		cut_first[64];	/* first cut >= 2^b */
	unsigned int	cut_span;	/* most cuts in one power of two */
};

/*
 * What a governor's internals did (its ops->stats), collected at the end
 * of each CPU and merged like the scores: SUM counters add up, LAST ones
 * add up with the number of CPUs that reported them (their mean is shown).
 */
struct replay_stat {
	char	name[IDL_STAT_NAME_LEN];
	char	key[IDL_STAT_KEY_LEN];	/* "" for none */
	s64	value;
	u32	cpus;
	u8	kind;			/* enum idl_stat_kind */
};

struct replay_stats {
	u32	n;
	u32	dropped;		/* counters beyond IDL_STAT_MAX */
	struct replay_stat s[IDL_STAT_MAX];
};

/* Scores of one governor (on one CPU, or merged). Integers only. */
struct replay_score {
	u64	selects;
	u64	sleep_exact;		/* selects with an exact sleep length */
	u64	tick_exact;		/* ... and an exact delta_tick */
	u64	invalid;		/* select() returned an invalid index */
	u64	entries[CSTATE_MAX];
	u64	residency_ns[CSTATE_MAX];
	u64	above[CSTATE_MAX];	/* kernel rule, per entered state */
	u64	below[CSTATE_MAX];
	u64	seg_hist[CSTATE_MAX];	/* segment durations, state bins */
	u64	vs[REPLAY_NVS][CSTATE_MAX];	/* per chosen state */
	u64	vs_cause[REPLAY_NVS][REPLAY_NCAUSE];
	u64	wake[REPLAY_NCAUSE][CSTATE_MAX]; /* wakeups: cause x state */
	u64	excess_lat_ns;		/* sum of lat(chosen) - lat(oracle) > 0 */
	u64	lat_violations;		/* exit latency > latency_req */
	u64	tick_wakeups;		/* tick kept, period outlasted it */
	u64	poll_limits;		/* poll ended on its time limit */
	u64	tick_stops;		/* tick stopped (effective) */
	u64	short_tick_stops;	/* ... for less than one tick */
	u64	stop_denied;		/* stop allowed, timer within tick */
	/* agreement with the kernel's recorded decisions (follow.c) */
	u64	agree_n, agree_same;		/* recorded entries, same state */
	/* ... not the same: the kernel's state was of a lower exit latency
	 * (what a latency constraint the trace lacks would do) */
	u64	agree_faster;
	u64	agree_tick_n, agree_tick_same;	/* ... same tick decision */
	u64	miss_n;			/* entries with the kernel's class */
	u64	miss[3][3];			/* kernel class x replay class */
	u64	agree_warmup;		/* recorded entries not scored */
	struct replay_stats internals;
};

/* Governor-independent numbers of the workload. */
struct replay_workload {
	u64	recorded;		/* recorded periods read */
	u64	merged;			/* after merging: workload periods */
	u64	bad;			/* skipped: exit before entry, ... */
	u64	idle_ns;
	u64	cause[WAKE_CAUSE_COUNT];
	u64	hist[CSTATE_MAX];	/* durations by state bins */
	u64	sleep_exact, tick_exact;
	u64	oracle_entries[CSTATE_MAX];	/* one oracle entry per period */
	u64	oracle_res[CSTATE_MAX];
	u64	oracle_lat_ns;
	u64	known_state;		/* recorded entries with a state */
	u64	parts_dropped;		/* parts beyond REPLAY_MAX_PARTS */
	u64	kernel_above, kernel_below;	/* recorded miss flags */
	/* periods whose recorded PM QoS constraint the governors read
	 * instead of the trace's (setup.latency_req) */
	u64	qos_periods;
};

/* The same for the workload: a count of periods per (interval of the
 * duration, wake cause, exact sleep length, exact delta_tick), for
 * merged, cause, hist, oracle_entries, oracle_lat_ns, sleep_exact and
 * tick_exact; and the idle time per interval, for oracle_res (idle_ns is
 * the sum of oracle_res). */
typedef u64 replay_wtally_t[REPLAY_NCUT][WAKE_CAUSE_COUNT][2][2];

/* Explain window for one CPU. */
struct replay_explain {
	int	cpu;			/* -1: off */
	bool	by_time;		/* window in ns since trace start */
	u64	from, to;		/* inclusive */
	u64	base_ns;		/* trace start for by_time */
	FILE	*out;
	struct idl_explain gov;		/* the governors' own lines */
};

/* a tally's wake causes: REPLAY_NCAUSE's, and a tick wakeup that cut a
 * select's segment short of the period's end */
#define REPLAY_TALLY_TICK	REPLAY_NCAUSE
#define REPLAY_TALLY_NCAUSE	(REPLAY_NCAUSE + 1)

/*
 * A count of selects per (interval of the time left until the period's
 * end, wake cause, kernel-rule miss class, chosen state): one increment
 * per select instead of one per counter.  The oracle's state is the
 * interval's, and so is the duration bin of a segment that lasts until
 * the period's end.  The counters of struct replay_score that depend
 * only on these (selects, entries, above, below, seg_hist, vs, vs_cause,
 * wake, excess latency, latency violations) are summed from it when the
 * CPU is done; seg_hist counts the segments cut short as they happen.
 */
typedef u64 replay_tally_row_t[REPLAY_TALLY_NCAUSE][3][CSTATE_MAX];

struct replay_gov_cpu {
	struct cpuidle_device	dev;
	struct replay_score	sc;
	replay_tally_row_t	*tally;		/* setup->ncut + 1 rows */
	bool			attached;
	bool			stopped;	/* tick stopped at the last exit */
	/* the kernel-driven copies (setup->follows[], follow.c): k[j]
	 * starts at the CPU's recorded entry j; k[kscore] is scored */
	struct replay_kcopy {
		struct cpuidle_device	dev;
		bool		attached;
		bool		last_tick;	/* got_tick of its last entry */
		int8_t		stop;		/* its last stop_tick, -1 none */
		int16_t		idx;		/* its last choice */
		u32		same;		/* agreeing in the window */
	}			k[REPLAY_KCOPIES];
	/* after the warm-up, a copy of another history beside the scored
	 * one (until witness_done() in follow.c stops it): where the two
	 * choose differently, the choice depends on the time before the
	 * trace and is not scored; -1 none */
	int			kwit;
	u32			wrun;
	u32			wbad;		/* it alone disagreed */
	bool			wit_due;	/* chosen at the warm-up's end */
	bool			last_hist;	/* the last entry depended */
	int			kscore;
	/* a copy that agreed as often as k[kscore] in the last window:
	 * it runs beside it until one of the two disagrees alone, -1 none */
	int			kalt;
	/* copies started at entries sync_from.. (the warm-up from 0, a
	 * resynchronisation after a disagreement), compared over
	 * REPLAY_WARMUP entries; -1 when none runs */
	s64			sync_from;
	u32			kmiss;	/* k[kscore]'s disagreements there */
	/* k[0]'s agreement in the warm-up: scored if it never ends */
	struct replay_agree {
		u64	n, same, faster, tick_n, tick_same, miss_n;
		u64	hist;	/* not scored: depended on the history */
		u64	miss[3][3];
	}			early;
};

/* --disagreements N: where one CPU's reports go. */
struct replay_disagree {
	FILE		*out;
	u64		limit, count;
	u64		base_ns;	/* trace start, for times */
	FILE		*mem;		/* the current select's explain lines */
	char		*buf;
	size_t		len;
	struct idl_explain ex;
};

/* One CPU of one trace: the streaming state. */
struct replay_cpu {
	const struct replay_setup *setup;
	struct cpuidle_driver	drv;
	unsigned int		cpu;
	struct idl_env		env;
	/* the workload period being assembled */
	bool			have;
	struct idle_period	cur;		/* merged so far */
	struct replay_part {
		s64	off, end;	/* entry, exit: ns after the first */
		s64	sleep;		/* recorded, relative to its entry */
		int16_t	state;
		uint8_t	flags;
		uint8_t	kind;		/* begun after: start, tick, poll */
	} part[REPLAY_MAX_PARTS];	/* its recorded parts */
	uint8_t			last_cause, last_flags;
	u32			parts;		/* recorded parts merged */
	u64			prev_exit;	/* end of the last workload period */
	struct replay_workload	wl;
	replay_wtally_t		wtally;
	u64			wcut_ns[REPLAY_NCUT];	/* idle ns per interval */
	struct replay_explain	*ex;
	u64			index;		/* workload period number */
	/* the kernel-driven copies see each recorded entry one entry late
	 * (whether a poll ran out needs the next entry's start) */
	bool			khave;
	struct idle_period	kpend;
	/* the entry stepped last, and its gap: what a copy started at the
	 * next one is told first (follow.c) */
	struct idle_period	kprev;
	s64			kprev_gap;
	u64			kindex;		/* recorded entry number */
	bool			khist;		/* this entry depended */
	/* the first REPLAY_PRIME recorded entries, held until the primed
	 * copy has run over them (NULL once they went on) */
	struct idle_period	*prime;
	u32			nprime;
	struct replay_disagree	*dis;
	struct replay_gov_cpu	g[REPLAY_MAX_GOV];
};

/* setup.c */
int replay_setup_init(struct replay_setup *s, const struct cstate_table *t,
		      struct idl_err *err);

/* The constraint the governors read at the entry of @p: its own when
 * the trace recorded one and --latency-req did not replace it. */
static inline s64 replay_latency_req(const struct replay_setup *s,
				     const struct idle_period *p)
{
	if (__builtin_expect(!(p->flags & IP_QOS_KNOWN), 1) ||
	    s->latency_fixed)
		return s->latency_req;
	return (s64)p->qos_latency_us * 1000;
}

/* The oracle's choice: the deepest allowed state whose target residency
 * fits @idle_ns (the first allowed state if none does). */
static inline int replay_oracle_state(const struct replay_setup *s,
				      s64 idle_ns)
{
	int k, best = s->ok[0];

	for (k = 1; k < s->nok; k++)
		if (s->ok_res[k] <= idle_ns)
			best = s->ok[k];
	return best;
}

/* The same under the constraint @lat_req instead of the setup's (a
 * period's recorded PM QoS constraint): no state whose exit latency
 * exceeds it, but the first enabled one if no other is allowed. */
static inline int replay_oracle_state_lat(const struct replay_setup *s,
					  s64 idle_ns, s64 lat_req)
{
	const struct cstate *c = s->table.states;
	int k, best = s->en[0];

	/* the allowed states of replay_setup_init() under @lat_req */
	for (k = 1; k < s->nen; k++)
		if (c[s->en[k]].exit_latency_ns <= lat_req &&
		    c[s->en[k]].target_residency_ns <= idle_ns)
			best = s->en[k];
	return best;
}

/* Bin i holds durations in [target(i), target(i+1)); bin 0 from 0. */
static inline int replay_state_bin(const struct replay_setup *s, s64 ns)
{
	int i, bin = 0;

	for (i = 1; i < s->table.count; i++)
		if (s->bin_res[i] <= ns)
			bin = i;
	return bin;
}

/*
 * The interval of cut[] that holds @ns: the index into cut_orc[] and
 * cut_bin[], the number of cuts <= @ns.  Both rules above change only
 * where a duration crosses one of the residencies they compare with, so
 * between two cuts they are constant.  The search starts at the first
 * cut of @ns's power of two: residencies are mostly in different ones.
 */
static inline unsigned int replay_cut(const struct replay_setup *s, s64 ns)
{
	unsigned int j = 0, k;

	/* durations differ at random from one call to the next: a loop
	 * that ends at the first larger cut is mispredicted at its end;
	 * a fixed number of steps (the sentinel stops j) is not */
	if (__builtin_expect(ns > 0 && ns < INT64_MAX, 1)) {
		j = s->cut_first[63 - __builtin_clzll((u64)ns)];
		/* the first step outside the loop: most tables need one */
		j += s->cut[j] <= ns;
		for (k = 1; k < s->cut_span; k++)
			j += s->cut[j] <= ns;
		return j;
	}
	while (j < (unsigned int)s->ncut && s->cut[j] <= ns)
		j++;
	return j;
}

/*
 * The sleep length a governor reads when no timer is pending at @now
 * (trace-clock ns, as CLOCK_MONOTONIC): the kernel's next event is then
 * KTIME_MAX and tick_nohz_get_sleep_length() returns KTIME_MAX - now,
 * never KTIME_MAX itself; menu's timer prediction wraps to another value
 * for the two (doc/scoring.md).
 */
static inline s64 replay_no_timer(u64 now)
{
	/* (imported times stop at 2^62 ns; past 2^63, still "none") */
	return now < (u64)KTIME_MAX ? KTIME_MAX - (s64)now : KTIME_MAX;
}

/* A recorded sleep length (TRACE_NO_TIMER for none) as read at @now. */
static inline s64 replay_sleep_input(s64 sleep, u64 now)
{
	return sleep == TRACE_NO_TIMER ? replay_no_timer(now) : sleep;
}

/*
 * The kernel's delta_next (tick_nohz_get_sleep_length()): the time to the
 * next programmed timer interrupt, the tick or an earlier timer.  A timer
 * of the wheel comes at a tick, so the sleep length stands for the
 * earliest hrtimer.  Traces imported by earlier builds hold this minimum
 * in delta_tick_ns already; taking it again leaves them as they were.
 */
static inline s64 replay_delta_next(s64 sleep, s64 tick)
{
	return sleep < tick ? sleep : tick;
}

/*
 * The sleep length a governor reads @elapsed ns into a period that began
 * at @entry with the recorded sleep length @sleep: once the predicted
 * timer has passed, its successor is unknown (no timer).
 */
static inline s64 replay_sleep_at(s64 sleep, u64 entry, s64 elapsed)
{
	if (sleep == TRACE_NO_TIMER || (elapsed && sleep - elapsed <= 0))
		return replay_no_timer(entry + (u64)elapsed);
	return sleep - elapsed;
}

/*
 * The first tick boundary after an entry, relative to the entry, in
 * (0, T]: the recorded delta_tick when the trace's own HZ is replayed
 * (*@exact if the recorder marked it so), otherwise a grid of multiples
 * of TICK_NSEC of the trace clock (what-if HZ).
 */
static inline s64 replay_first_tick(const struct replay_setup *s,
				    u64 entry_ns, s64 delta_tick, u8 flags,
				    bool *exact)
{
	s64 t = s->tick_nsec, d = delta_tick;

	*exact = false;
	if (s->own_hz) {
		if (d > 0 && d <= t) {
			*exact = flags & IP_TICK_EXACT;
			return d;
		}
		d %= t;
		return d > 0 ? d : d + t;
	}
	return t - (s64)(entry_ns % (u64)t);
}

/* A recorded period that a later one may be merged into: it ended by a
 * governor's doing (a tick wakeup, a poll time limit), not the workload's. */
static inline bool replay_merge_target(u8 cause, u8 flags)
{
	return cause == WAKE_TICK || (flags & IP_POLL_LIMIT);
}

/* Is a recorded entry at @entry_ns, within @gap_ns of the end @end_ns of
 * a period that ended with @cause and @flags, that period going on? */
static inline bool replay_merges(u8 cause, u8 flags, u64 end_ns,
				 u64 entry_ns, s64 gap_ns)
{
	return replay_merge_target(cause, flags) && entry_ns >= end_ns &&
	       entry_ns - end_ns <= (u64)gap_ns;
}

/* engine.c */
/* A column's device: its CPU, and the states it may not enter. */
void replay_dev_init(struct cpuidle_device *dev, const struct replay_setup *s,
		     unsigned int cpu);
int replay_cpu_init(struct replay_cpu *rc, const struct replay_setup *s,
		    unsigned int cpu, struct idl_err *err);
void replay_cpu_feed(struct replay_cpu *rc, const struct idle_period *p);
/* the same as replay_cpu_feed() on each of @n periods in turn */
void replay_cpu_feed_batch(struct replay_cpu *rc, const struct idle_period *p,
			   int n);
void replay_cpu_finish(struct replay_cpu *rc);	/* flush + detach */

/* follow.c: agreement with the kernel */
int replay_follow_init(struct replay_cpu *rc, struct idl_err *err);
void replay_follow_feed(struct replay_cpu *rc, const struct idle_period *p);
void replay_follow_finish(struct replay_cpu *rc);
int replay_disagree_open(struct replay_disagree *d, FILE *out, u64 limit,
			 u64 base_ns, struct idl_err *err);
void replay_disagree_close(struct replay_disagree *d);

/* score.c */
void replay_score_add(struct replay_score *to, const struct replay_score *s);
/* Add the counters derived from the tallies to @sc and @wl (engine.c). */
void replay_score_tally(struct replay_score *sc, const struct replay_setup *s,
			const replay_tally_row_t *t);
/* One select scored against the oracle under the constraint @lat_req
 * (a period's own, not the setup's): returns the oracle's state. */
int replay_score_one(struct replay_score *sc, const struct replay_setup *s,
		     s64 remain, int tc, int m, int i, s64 lat_req);
/* One workload period under the constraint @lat_req, likewise. */
void replay_workload_one(struct replay_workload *wl,
			 const struct replay_setup *s, s64 dur, int cause,
			 bool sleep_exact, bool tick_exact, s64 lat_req);
void replay_workload_tally(struct replay_workload *wl,
			   const struct replay_setup *s,
			   const replay_wtally_t t, const u64 *cut_ns);
void replay_workload_add(struct replay_workload *to,
			 const struct replay_workload *w);
/* ops->stats of a CPU's governor into @ctx, a struct replay_stats */
void replay_stats_emit(void *ctx, const char *name, const char *key,
		       long long value, enum idl_stat_kind kind);

enum replay_energy_model {
	REPLAY_ENERGY_TABLE,	/* the table's power data */
	REPLAY_ENERGY_DERIVED,	/* derived from latencies/residencies */
};

struct replay_energy {
	enum replay_energy_model model;
	const char	*unit;
	double		power[CSTATE_MAX];	/* per ns of residency, scaled */
	double		entry[CSTATE_MAX];	/* per entry */
	double		kappa;		/* derived: transition cost scale */
	/* unscaled, for the output: derived P (active = 1) and E (active-ns);
	 * table: its power and entry energy */
	double		p[CSTATE_MAX], e[CSTATE_MAX];
};

void replay_energy_model(const struct cstate_table *t,
			 struct replay_energy *m);
double replay_energy_of(const struct replay_energy *m, const u64 *entries,
			const u64 *residency_ns, int count);

/* latency of all wakeups of @cause (REPLAY_NCAUSE: all causes) */
struct replay_latency {
	u64	n;
	u64	total_ns;
	double	mean_ns;
	s64	p50_ns, p99_ns, max_ns;
};
void replay_latency_of(const struct replay_setup *s,
		       const struct replay_score *sc, int cause,
		       struct replay_latency *l);

#endif /* IDLELAB_REPLAY_H */
