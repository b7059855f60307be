// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel half of a kernel-source governor plugin: compiled with the
 * governor file against idlelab-kcompat.h, it holds what the cpuidle
 * core would: the registered governor, its module parameters, and per
 * replayed device a slot with the kernel's struct cpuidle_device and
 * driver.  The slot number is the "CPU" the governor sees, so that two
 * devices of one CPU (a replay column and its kernel-driven copies) keep
 * apart in the governor's per-CPU data: each slot has its own copy of
 * the governor's per-CPU section.  Slots are reused once disabled.
 */
#include <pthread.h>
#include <stdlib.h>

#include "kc-bridge.h"

__thread struct kc_env *kc_env;
__thread int kc_cpu;

static struct cpuidle_governor *gov;
static struct kc_param params[KC_MAX_PARAMS];
static int nr_params;

struct slot {
	struct cpuidle_driver	drv;
	struct cpuidle_device	dev;
	char			*percpu;	/* its per-CPU section */
};
static struct slot *slots[KC_SLOTS];
static int nr_slots;
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

/* The governor's per-CPU variables (DEFINE_PER_CPU): their initial
 * values, which each slot's copy starts from, as each CPU's area does. */
extern char __start_kc_percpu_data[] __attribute__((weak));
extern char __stop_kc_percpu_data[] __attribute__((weak));
/* what a write past the section's end lands in, in each copy */
#define PERCPU_SLACK	4096

void *kc_percpu(int slot, const void *var)
{
	const char *start = __start_kc_percpu_data;

	return slots[slot]->percpu + ((const char *)var - start);
}

static char *percpu_copy(void)
{
	const char *start = __start_kc_percpu_data;
	size_t n = start ? (size_t)(__stop_kc_percpu_data - start) : 0;
	char *p = calloc(1, n + PERCPU_SLACK);

	if (p && n)
		memcpy(p, start, n);
	return p;
}

/* A free slot (the lowest), or -1. */
static int take_slot(struct slot *s)
{
	int n;

	pthread_mutex_lock(&slots_lock);
	for (n = 0; n < nr_slots && slots[n]; n++)
		;
	if (n == nr_slots && nr_slots < KC_SLOTS)
		nr_slots++;
	if (n < nr_slots)
		slots[n] = s;
	else
		n = -1;
	pthread_mutex_unlock(&slots_lock);
	return n;
}

int cpuidle_register_governor(struct cpuidle_governor *g)
{
	if (!gov)
		gov = g;
	return 0;
}

static long long read_param(const struct kc_param *p)
{
	switch (p->type) {
	case KC_P_BOOL:		return *(bool *)p->var;
	case KC_P_INT:		return *(int *)p->var;
	case KC_P_UINT:		return *(unsigned int *)p->var;
	case KC_P_LONG:		return *(long *)p->var;
	case KC_P_ULONG:	return (long long)*(unsigned long *)p->var;
	case KC_P_SHORT:	return *(short *)p->var;
	case KC_P_USHORT:	return *(unsigned short *)p->var;
	default:		return *(unsigned char *)p->var;
	}
}

void kc_param_set(int i, long long v)
{
	void *var = params[i].var;

	switch (params[i].type) {
	case KC_P_BOOL:		*(bool *)var = v != 0; break;
	case KC_P_INT:		*(int *)var = (int)v; break;
	case KC_P_UINT:		*(unsigned int *)var = (unsigned int)v; break;
	case KC_P_LONG:		*(long *)var = (long)v; break;
	case KC_P_ULONG:	*(unsigned long *)var = (unsigned long)v; break;
	case KC_P_SHORT:	*(short *)var = (short)v; break;
	case KC_P_USHORT:	*(unsigned short *)var = (unsigned short)v;
				break;
	default:		*(unsigned char *)var = (unsigned char)v;
	}
}

void kc_param_add(const char *name, int type, void *var)
{
	struct kc_param *p;

	if (nr_params == KC_MAX_PARAMS)
		return;
	p = &params[nr_params++];
	p->name = name;
	p->type = type;
	p->var = var;
	p->def = read_param(p);
}

const char *kc_name(void)
{
	return gov ? gov->name : NULL;
}

unsigned int kc_rating(void)
{
	return gov ? gov->rating : 0;
}

int kc_nr_params(void)
{
	return nr_params;
}

const struct kc_param *kc_param(int i)
{
	return &params[i];
}

/* Before a call: the device as idlelab's core left it. */
static void dev_in(struct cpuidle_device *dev, const struct kc_dev *d)
{
	int i;

	dev->last_state_idx = d->last_state_idx;
	dev->last_residency_ns = d->last_residency_ns;
	dev->last_residency = d->last_residency_ns / NSEC_PER_USEC > INT_MAX ?
			      INT_MAX : (int)(d->last_residency_ns /
					      NSEC_PER_USEC);
	dev->poll_limit_ns = d->poll_limit_ns;
	dev->poll_time_limit = d->poll_time_limit;
	for (i = 0; i < KC_STATE_MAX; i++)
		dev->states_usage[i].disable = d->disable[i];
}

/* After it: what the governor wrote. */
static void dev_out(const struct cpuidle_device *dev, struct kc_dev *d)
{
	d->last_state_idx = dev->last_state_idx;
	d->poll_limit_ns = dev->poll_limit_ns;
	d->poll_time_limit = dev->poll_time_limit;
}

static void fill_driver(struct cpuidle_driver *drv, const struct kc_state *s,
			int count)
{
	int i;

	drv->name = "idlelab";
	drv->state_count = count;
	for (i = 0; i < count && i < KC_STATE_MAX; i++) {
		struct cpuidle_state *k = &drv->states[i];

		memcpy(k->name, s[i].name, sizeof(k->name));
		memcpy(k->desc, s[i].desc, sizeof(k->desc));
		k->exit_latency_ns = (kc_residency_t)s[i].exit_latency_ns;
		k->target_residency_ns =
			(kc_residency_t)s[i].target_residency_ns;
		k->exit_latency = (unsigned int)(s[i].exit_latency_ns /
						 NSEC_PER_USEC);
		k->target_residency = (unsigned int)
			(s[i].target_residency_ns / NSEC_PER_USEC);
		k->flags = s[i].flags;
	}
}

int kc_enable(const struct kc_state *states, int count, struct kc_dev *d,
	      int *slot)
{
	struct slot *s = calloc(1, sizeof(*s));
	int n, i, ret;

	if (!s || !(s->percpu = percpu_copy()) || (n = take_slot(s)) < 0) {
		if (s)
			free(s->percpu);
		free(s);
		return -1;
	}
	fill_driver(&s->drv, states, count);
	s->dev.cpu = (unsigned int)n;
	s->dev.registered = 1;
	s->dev.enabled = 1;
	dev_in(&s->dev, d);
	/* before 5.5 a state disabled for every CPU was drv->states[].disabled */
	for (i = 0; i < count && i < KC_STATE_MAX; i++)
		s->drv.states[i].disabled = d->disable[i] != 0;
	*slot = n;
	kc_cpu = n;
	ret = gov->enable ? gov->enable(&s->drv, &s->dev) : 0;
	dev_out(&s->dev, d);	/* e.g. ladder's enable sets last_state_idx */
	return ret;
}

void kc_disable(int slot)
{
	struct slot *s = slots[slot];

	kc_cpu = slot;
	if (gov->disable)
		gov->disable(&s->drv, &s->dev);
	pthread_mutex_lock(&slots_lock);
	slots[slot] = NULL;
	pthread_mutex_unlock(&slots_lock);
	free(s->percpu);
	free(s);
}

int kc_select(int slot, struct kc_dev *d, bool *stop_tick)
{
	struct slot *s = slots[slot];
	int idx;

	kc_cpu = slot;
	dev_in(&s->dev, d);
	idx = gov->select(&s->drv, &s->dev, stop_tick);
	dev_out(&s->dev, d);
	return idx;
}

void kc_reflect(int slot, struct kc_dev *d, int index)
{
	struct slot *s = slots[slot];

	kc_cpu = slot;
	dev_in(&s->dev, d);
	if (gov->reflect)
		gov->reflect(&s->dev, index);
	dev_out(&s->dev, d);
}
