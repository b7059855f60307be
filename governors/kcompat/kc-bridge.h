/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bridge between the two halves of a kernel-source governor plugin
 * (doc/plugins.md, "Kernel-source plugins").  glue-kernel.c is compiled
 * with the kernel governor file against the kcompat headers (the
 * kernel's structures); glue-idlelab.c against idlelab/governor.h
 * (idlelab's structures of the same names).  They meet here, in plain
 * types only.
 */
#ifndef IDLELAB_KC_BRIDGE_H
#define IDLELAB_KC_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#define KC_STATE_MAX	10
#define KC_NAME_LEN	16
#define KC_DESC_LEN	32

/* What the kernel's helpers answer during one call (idl_env's values). */
struct kc_env {
	unsigned int	hz;
	int64_t		tick_nsec;
	int64_t		latency_req_ns;
	int64_t		sleep_length, delta_tick;
	bool		tick_stopped, got_tick, queried;
	uint64_t	now_ns;
};

struct kc_state {
	char		name[KC_NAME_LEN], desc[KC_DESC_LEN];
	int64_t		exit_latency_ns, target_residency_ns;
	unsigned int	flags;
};

/* The device fields both sides keep in step around every call. */
struct kc_dev {
	int		last_state_idx;
	uint64_t	last_residency_ns;
	uint64_t	poll_limit_ns;
	bool		poll_time_limit;
	unsigned long long disable[KC_STATE_MAX];
};

/* A tunable: a module_param() of the governor file. */
enum kc_param_type { KC_P_BOOL, KC_P_INT, KC_P_UINT, KC_P_LONG,
		     KC_P_ULONG, KC_P_SHORT, KC_P_USHORT, KC_P_BYTE };
struct kc_param {
	const char	*name;
	int		type;		/* enum kc_param_type */
	void		*var;
	long long	def;		/* its value when loaded */
};
#define KC_MAX_PARAMS	8

/* glue-kernel.c */
extern __thread struct kc_env *kc_env;
const char *kc_name(void);		/* NULL: no governor registered */
unsigned int kc_rating(void);
int kc_nr_params(void);
const struct kc_param *kc_param(int i);
void kc_param_set(int i, long long v);
int kc_enable(const struct kc_state *states, int count, struct kc_dev *d,
	      int *slot);
void kc_disable(int slot);
int kc_select(int slot, struct kc_dev *d, bool *stop_tick);
void kc_reflect(int slot, struct kc_dev *d, int index);

#endif /* IDLELAB_KC_BRIDGE_H */
