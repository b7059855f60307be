// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay detail of a replay results file (doc/scoring.md names every
 * field): what the report plots beyond the shared results schema.
 * Unknown or missing fields are left at zero; only a malformed shape is
 * an error.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results.h"

static int state_index(const struct res_replay *rp, const char *name)
{
	int i;

	for (i = 0; i < rp->nstates; i++)
		if (!strcmp(rp->state[i], name))
			return i;
	return -1;
}

static int cause_index(struct res_replay *rp, const char *name)
{
	int i;

	for (i = 0; i < rp->ncauses; i++)
		if (!strcmp(rp->cause[i], name))
			return i;
	if (rp->ncauses == RES_MAX_CAUSES || strlen(name) >= sizeof(rp->cause[0]))
		return -1;
	snprintf(rp->cause[rp->ncauses], sizeof(rp->cause[0]), "%s", name);
	return rp->ncauses++;
}

/* The states of the first trace define the bins; 0 if @tr matches them. */
static int take_states(struct res_replay *rp, json_t *states)
{
	size_t i;
	json_t *st;

	if (!json_is_array(states) || json_array_size(states) > RES_MAX_STATES)
		return -1;
	if (rp->nstates) {
		if (json_array_size(states) != (size_t)rp->nstates)
			return 1;
		json_array_foreach(states, i, st)
			if (strcmp(rp->state[i], json_string_value(
				json_object_get(st, "name")) ?: ""))
				return 1;
		return 0;
	}
	json_array_foreach(states, i, st) {
		const char *name = json_string_value(json_object_get(st, "name"));

		if (!name || strlen(name) >= sizeof(rp->state[0]))
			return -1;
		snprintf(rp->state[i], sizeof(rp->state[0]), "%s", name);
		rp->target_residency_ns[i] = json_integer_value(
			json_object_get(st, "target_residency_ns"));
	}
	rp->nstates = (int)json_array_size(states);
	return 0;
}

/* "STATE/same", "STATE/too_deep", "STATE/too_shallow" counters. */
static void add_vs_oracle(struct res_replay *rp, json_t *obj, bool by_cause,
			  int config)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const char *slash = strrchr(key, '/');
		char name[32];
		struct res_vs_oracle *o;
		int i;

		if (!slash || (size_t)(slash - key) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(slash - key), key);
		i = by_cause ? cause_index(rp, name) : state_index(rp, name);
		if (i < 0)
			continue;
		o = by_cause ? &rp->by_cause[config][i] : &rp->by_state[config][i];
		if (!strcmp(slash + 1, "same"))
			o->same += json_number_value(v);
		else if (!strcmp(slash + 1, "too_deep"))
			o->deep += json_number_value(v);
		else if (!strcmp(slash + 1, "too_shallow"))
			o->shallow += json_number_value(v);
	}
}

static void add_trace(struct res_set *rs, struct res_replay *rp, json_t *tr)
{
	json_t *hist = json_object_get(json_object_get(tr, "workload"),
				       "idle_histogram");
	json_t *govs = json_object_get(tr, "governors");
	const char *key;
	json_t *v;
	int c;

	json_object_foreach(hist, key, v) {
		int i = state_index(rp, key);

		if (i >= 0)
			rp->idle_hist[i] += json_number_value(v);
	}
	for (c = 0; c < rs->nconfigs; c++) {
		json_t *g = json_object_get(govs, rs->configs[c]);

		add_vs_oracle(rp, json_object_get(g, "vs_oracle_by_state"), false, c);
		add_vs_oracle(rp, json_object_get(g, "vs_oracle_by_cause"), true, c);
	}
}

int results_load_replay(struct res_set *rs, json_t *replay, struct idl_err *err)
{
	json_t *traces = json_object_get(replay, "traces"), *tr;
	struct res_replay *rp;
	size_t i;

	if (!json_is_array(traces) || !json_array_size(traces))
		return 0;
	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
	json_array_foreach(traces, i, tr) {
		int r = take_states(rp, json_object_get(tr, "states"));

		if (r < 0) {
			free(rp);
			return idl_err_set(err, IDL_EXIT_BADINPUT,
					   "%s: replay trace %zu: bad \"states\"",
					   rs->path, i);
		}
		if (r == 0)
			add_trace(rs, rp, tr);
	}
	rs->replay = rp;
	return 0;
}
