// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replay setup: the replayed table with the what-ifs applied, the
 * oracle's rule, the state bins and the energy model (doc/scoring.md).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "replay.h"

/* Add @v to the ascending cut[] unless it is there. */
static void add_cut(struct replay_setup *s, s64 v)
{
	int k, j;

	for (k = 0; k < s->ncut && s->cut[k] < v; k++)
		;
	if (k < s->ncut && s->cut[k] == v)
		return;
	for (j = s->ncut; j > k; j--)
		s->cut[j] = s->cut[j - 1];
	s->cut[k] = v;
	s->ncut++;
}

/*
 * replay_cut()'s tables: the residencies the two rules compare with,
 * and each rule run once per interval between them, at its lowest
 * duration (below the first cut: one less than it).
 */
static void cut_init(struct replay_setup *s)
{
	int i;

	s->ncut = 0;
	for (i = 1; i < s->table.count; i++)
		add_cut(s, s->bin_res[i]);
	for (i = 1; i < s->nok; i++)
		add_cut(s, s->ok_res[i]);
	for (i = 0; i <= s->ncut; i++) {
		s64 at = !i ? (s->ncut && s->cut[0] > INT64_MIN ?
			       s->cut[0] - 1 : 0) : s->cut[i - 1];

		s->cut_orc[i] = (uint8_t)replay_oracle_state(s, at);
		s->cut_bin[i] = (uint8_t)replay_state_bin(s, at);
	}
	/* cuts below 2^i: all of them are <= any duration in [2^i, 2^(i+1)) */
	for (i = 0; i < 64; i++) {
		int k = 0;

		while (k < s->ncut &&
		       (s->cut[k] < 0 || (u64)s->cut[k] < 1ULL << i))
			k++;
		s->cut_first[i] = (uint8_t)k;
	}
	s->cut[s->ncut] = INT64_MAX;
	s->cut_span = 0;
	for (i = 0; i < 63; i++)
		if (s->cut_first[i + 1] - s->cut_first[i] > (int)s->cut_span)
			s->cut_span = (unsigned)(s->cut_first[i + 1] -
						 s->cut_first[i]);
}

int replay_setup_init(struct replay_setup *s, const struct cstate_table *t,
		      struct idl_err *err)
{
	int i;

	if (t->count < 1 || t->count > CSTATE_MAX)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "table '%s' has %d states (1..%d allowed)",
				   t->name, t->count, CSTATE_MAX);
	if (s->disabled >> t->count)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "--disable: table '%s' has only %d states",
				   t->name, t->count);
	if (s->tick_nsec <= 0)
		s->tick_nsec = idl_tick_nsec_for_hz(250);
	if (s->merge_gap_ns < 0)
		s->merge_gap_ns = REPLAY_DEFAULT_MERGE_GAP_NS;
	s->table = *t;
	for (i = 0; i < t->count; i++)
		if (s->disabled & (1ULL << i))
			s->table.states[i].disabled = true;
	cstate_table_to_driver(&s->table, &s->drv);

	/* the oracle may use enabled states within the latency limit */
	s->nok = s->nen = 0;
	for (i = 0; i < t->count; i++) {
		const struct cstate *c = &s->table.states[i];

		if (c->disabled || (c->flags & CSTATE_UNUSABLE))
			continue;
		s->en[s->nen++] = i;
		if (c->exit_latency_ns > s->latency_req && s->nok)
			continue;
		s->ok[s->nok++] = i;
	}
	if (!s->nok)
		s->ok[s->nok++] = 0;
	if (!s->nen)
		s->en[s->nen++] = 0;
	for (i = 0; i < s->nok; i++)
		s->ok_res[i] = s->table.states[s->ok[i]].target_residency_ns;
	for (i = 0; i < t->count; i++)
		s->bin_res[i] = s->table.states[i].target_residency_ns;
	cut_init(s);
	return 0;
}

static bool table_has_power(const struct cstate_table *t)
{
	int i;

	if (t->power_unit == CSTATE_POWER_NONE)
		return false;
	for (i = 0; i < t->count; i++)
		if (isnan(t->states[i].power))
			return false;
	return true;
}

/*
 * Derived model (doc/scoring.md): active power 1.0 (polling states run at
 * it); one entry+exit of state i costs kappa * L_i (active power over the
 * exit latency, scaled by kappa), and P_i makes the target residency T_i
 * the break-even time against the next shallower state:
 *   P_{i-1} T_i + E_{i-1} = P_i T_i + E_i.
 * kappa = 1 (the plain rule) unless the steps would take the deepest
 * state below 10% of active power; then kappa = 0.9 / S, S being the sum
 * of the steps (L_i - L_{i-1}) / T_i.
 */
static double step(const struct cstate_table *t, int i, double prev_l)
{
	const struct cstate *c = &t->states[i];
	double dl = (double)c->exit_latency_ns - prev_l;

	if ((c->flags & CSTATE_POLLING) || c->target_residency_ns <= 0 ||
	    dl <= 0)
		return 0.0;
	return dl / (double)c->target_residency_ns;
}

static void derive_model(const struct cstate_table *t,
			 struct replay_energy *m)
{
	double prev_l = 0.0, sum = 0.0, p = 1.0;
	int i;

	for (i = 0; i < t->count; i++) {
		sum += step(t, i, prev_l);
		prev_l = (double)t->states[i].exit_latency_ns;
	}
	m->kappa = sum > 0.9 ? 0.9 / sum : 1.0;
	prev_l = 0.0;
	for (i = 0; i < t->count; i++) {
		const struct cstate *c = &t->states[i];

		if (c->flags & CSTATE_POLLING)
			p = 1.0;
		else
			p -= m->kappa * step(t, i, prev_l);
		m->p[i] = p;
		m->e[i] = c->flags & CSTATE_POLLING ? 0.0 :
			m->kappa * (double)c->exit_latency_ns;
		/* scale: energies in active-ms */
		m->power[i] = p * 1e-6;
		m->entry[i] = c->flags & CSTATE_POLLING ? 0.0 :
			m->kappa * (double)c->exit_latency_ns * 1e-6;
		prev_l = (double)c->exit_latency_ns;
	}
}

void replay_energy_model(const struct cstate_table *t,
			 struct replay_energy *m)
{
	int i;

	memset(m, 0, sizeof(*m));
	if (!table_has_power(t)) {
		m->model = REPLAY_ENERGY_DERIVED;
		m->unit = "active-ms";
		derive_model(t, m);
		return;
	}
	m->model = REPLAY_ENERGY_TABLE;
	m->unit = t->power_unit == CSTATE_POWER_MW ? "mJ" : "rel*s";
	for (i = 0; i < t->count; i++) {
		const struct cstate *c = &t->states[i];
		double e = c->entry_energy;

		m->p[i] = c->power;
		m->power[i] = c->power * 1e-9;	/* mW * ns = 1e-9 mJ */
		/* entry energies are in uJ = 1e-3 mJ (relative: as given) */
		if (!isnan(e)) {
			m->e[i] = e;
			m->entry[i] = t->power_unit == CSTATE_POWER_MW ?
				      e * 1e-3 : e;
			continue;
		}
		/* unknown: what makes the target residency the break-even
		 * time against the next shallower state, as the derived
		 * model does; 0 would make the deep states free to enter */
		m->entry[i] = 0.0;
		if (i && !(c->flags & CSTATE_POLLING))
			m->entry[i] = m->entry[i - 1] + (m->power[i - 1] -
				m->power[i]) * (double)c->target_residency_ns;
		if (m->entry[i] < 0)
			m->entry[i] = 0.0;
		m->e[i] = t->power_unit == CSTATE_POWER_MW ?
			  m->entry[i] * 1e3 : m->entry[i];
	}
}

double replay_energy_of(const struct replay_energy *m, const u64 *entries,
			const u64 *residency_ns, int count)
{
	double sum = 0.0;
	int i;

	for (i = 0; i < count; i++)
		sum += m->power[i] * (double)residency_ns[i] +
		       m->entry[i] * (double)entries[i];
	return sum;
}
