// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The idlelab half of a kernel-source governor plugin: compiled against
 * idlelab/governor.h, it is the plugin idlelab loads.  Its ops wrap the
 * governor the kernel file registered (glue-kernel.c): every call
 * copies idlelab's device and environment into the kernel's structures
 * through kc-bridge.h and the governor's writes back.  The governor's
 * module_param()s are the plugin's tunables, set before every call.
 */
#include <pthread.h>
#include <stdio.h>

#include <idlelab/governor.h>

#include "kc-bridge.h"

#ifndef KC_ORIGIN
#define KC_ORIGIN	"kernel source"
#endif

struct kc_data {			/* gov_data(dev) */
	int	slot;
};

static struct idl_gov_param params[KC_MAX_PARAMS + 1];
static struct idl_governor_ops kc_ops;

static void env_in(struct kc_env *k, const struct idl_env *e)
{
	k->hz = e->hz ? e->hz : (unsigned int)((NSEC_PER_SEC +
						e->tick_nsec / 2) /
					       e->tick_nsec);
	k->tick_nsec = e->tick_nsec;
	k->latency_req_ns = e->latency_req;
	k->sleep_length = e->sleep_length;
	k->delta_tick = e->delta_tick;
	k->tick_stopped = e->tick_stopped;
	k->got_tick = e->got_tick;
	k->queried = false;
	k->now_ns = e->now_ns;
}

static void env_out(const struct kc_env *k, struct idl_env *e)
{
	e->got_tick = k->got_tick;
	if (k->queried)
		e->sleep_length_queried = true;
}

static void dev_in(struct kc_dev *d, const struct cpuidle_device *dev)
{
	int i;

	d->last_state_idx = dev->last_state_idx;
	d->last_residency_ns = dev->last_residency_ns;
	d->poll_limit_ns = dev->poll_limit_ns;
	d->poll_time_limit = dev->poll_time_limit;
	for (i = 0; i < KC_STATE_MAX; i++)
		d->disable[i] = dev->states_usage[i].disable;
}

static void dev_out(struct cpuidle_device *dev, const struct kc_dev *d)
{
	dev->last_state_idx = d->last_state_idx;
	dev->poll_limit_ns = d->poll_limit_ns;
	dev->poll_time_limit = d->poll_time_limit;
}

/* This instance's tunables into the governor's module parameters. */
static void set_params(const struct cpuidle_device *dev)
{
	int i;

	for (i = 0; i < kc_nr_params(); i++)
		kc_param_set(i, gov_param(dev, i));
}

/*
 * A module parameter is one variable for the whole kernel, while replay
 * runs devices of different instances (and of traces with different
 * capture tunables) on several threads: one call at a time, each with
 * its own instance's values, keeps every call's view of them its own.
 */
static pthread_mutex_t kc_lock = PTHREAD_MUTEX_INITIALIZER;

static void kc_enter(struct kc_env *k, const struct cpuidle_device *dev,
		     struct kc_dev *d)
{
	pthread_mutex_lock(&kc_lock);
	env_in(k, idl_current_env);
	kc_env = k;
	set_params(dev);
	if (d)
		dev_in(d, dev);
}

static void kc_leave(void)
{
	kc_env = NULL;
	pthread_mutex_unlock(&kc_lock);
}

static int kc_idl_enable(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev)
{
	struct kc_data *data = gov_data(dev);
	struct kc_state states[KC_STATE_MAX];
	struct kc_env k;
	struct kc_dev d;
	int i, ret;

	for (i = 0; i < drv->state_count && i < KC_STATE_MAX; i++) {
		snprintf(states[i].name, sizeof(states[i].name), "%s",
			 drv->states[i].name);
		snprintf(states[i].desc, sizeof(states[i].desc), "%s",
			 drv->states[i].desc);
		states[i].exit_latency_ns = drv->states[i].exit_latency_ns;
		states[i].target_residency_ns =
			drv->states[i].target_residency_ns;
		states[i].flags = drv->states[i].flags;
	}
	kc_enter(&k, dev, &d);
	ret = kc_enable(states, i, &d, &data->slot);
	dev_out(dev, &d);
	kc_leave();
	return ret;
}

static void kc_idl_disable(struct cpuidle_driver *drv,
			   struct cpuidle_device *dev)
{
	struct kc_data *data = gov_data(dev);
	struct kc_env k;

	(void)drv;
	kc_enter(&k, dev, NULL);
	kc_disable(data->slot);
	kc_leave();
}

static int kc_idl_select(struct cpuidle_driver *drv,
			 struct cpuidle_device *dev, bool *stop_tick)
{
	struct kc_data *data = gov_data(dev);
	struct kc_env k;
	struct kc_dev d;
	int idx;

	(void)drv;
	kc_enter(&k, dev, &d);
	idx = kc_select(data->slot, &d, stop_tick);
	dev_out(dev, &d);
	env_out(&k, idl_current_env);
	kc_leave();
	return idx;
}

static void kc_idl_reflect(struct cpuidle_device *dev, int index)
{
	struct kc_data *data = gov_data(dev);
	struct kc_env k;
	struct kc_dev d;

	kc_enter(&k, dev, &d);
	kc_reflect(data->slot, &d, index);
	dev_out(dev, &d);
	env_out(&k, idl_current_env);
	kc_leave();
}

static long long type_min(int type)
{
	switch (type) {
	case KC_P_INT:		return INT_MIN;
	case KC_P_LONG:		return LLONG_MIN;
	case KC_P_SHORT:	return SHRT_MIN;
	default:		return 0;
	}
}

static long long type_max(int type)
{
	switch (type) {
	case KC_P_BOOL:		return 1;
	case KC_P_INT:		return INT_MAX;
	case KC_P_UINT:		return UINT_MAX;
	case KC_P_SHORT:	return SHRT_MAX;
	case KC_P_USHORT:	return USHRT_MAX;
	case KC_P_BYTE:		return UCHAR_MAX;
	default:		return LLONG_MAX;
	}
}

/* After the governor file's constructors: its name, rating, tunables. */
__attribute__((constructor(300))) static void kc_idl_init(void)
{
	int i;

	kc_ops.name = kc_name();
	if (!kc_ops.name)
		return;		/* idlelab then says it has no governor */
	kc_ops.rating = kc_rating();
	kc_ops.data_size = sizeof(struct kc_data);
	for (i = 0; i < kc_nr_params(); i++) {
		const struct kc_param *p = kc_param(i);

		params[i].name = p->name;
		params[i].help = "module parameter";
		params[i].def = p->def;
		params[i].min = type_min(p->type);
		params[i].max = type_max(p->type);
	}
	kc_ops.params = params;
	kc_ops.enable = kc_idl_enable;
	kc_ops.disable = kc_idl_disable;
	kc_ops.select = kc_idl_select;
	kc_ops.reflect = kc_idl_reflect;
}

IDL_DEFINE_PLUGIN(kc_ops, KC_ORIGIN);
