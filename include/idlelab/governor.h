/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * idlelab governor API.
 *
 * This header mirrors the part of the kernel's cpuidle interface that a
 * governor sees (struct cpuidle_driver, struct cpuidle_device,
 * struct cpuidle_governor and the tick/QoS helpers it calls), so that a
 * governor's select()/reflect() can move between drivers/cpuidle/governors/
 * and idlelab with mechanical changes only:
 *
 *   - per_cpu(x, cpu) / this_cpu_ptr(&x)   ->  gov_data(dev)
 *   - module parameters                    ->  gov_tunables(dev)
 *   - tick_nohz_get_sleep_length(&d),
 *     tick_nohz_tick_stopped(),
 *     tick_nohz_idle_got_tick(),
 *     cpuidle_governor_latency_req(cpu),
 *     TICK_NSEC                             ->  the same names, answered by the
 *                                              environment the caller set up
 *                                              (struct idl_env) for this CPU.
 *
 * The caller (decide, replay) owns the environment; governors only read it
 * through the helpers below.  Everything is single-threaded per device; the
 * current environment is thread-local so that replay can run CPUs on
 * several threads.
 */
#ifndef IDLELAB_GOVERNOR_H
#define IDLELAB_GOVERNOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <limits.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define CPUIDLE_STATE_MAX	10
#define CPUIDLE_NAME_LEN	16
#define CPUIDLE_DESC_LEN	32

#define KTIME_MAX		((s64)~((u64)1 << 63))
#define NSEC_PER_USEC		1000L
#define NSEC_PER_SEC		1000000000L
#ifndef U64_MAX
#define U64_MAX			((u64)~0ULL)
#endif
#ifndef S64_MAX
#define S64_MAX			((s64)(U64_MAX >> 1))
#endif
#ifndef UINT_MAX
#define UINT_MAX		(~0U)
#endif

/* Shared governor thresholds (drivers/cpuidle/governors/gov.h). */
#define RESIDENCY_THRESHOLD_NS	(15 * NSEC_PER_USEC)

/* Idle state flags, bit numbers as in the kernel. */
#define CPUIDLE_FLAG_NONE	(0x00)
#define CPUIDLE_FLAG_POLLING	(1U << 0)
#define CPUIDLE_FLAG_COUPLED	(1U << 1)
#define CPUIDLE_FLAG_TIMER_STOP	(1U << 2)
#define CPUIDLE_FLAG_UNUSABLE	(1U << 3)
#define CPUIDLE_FLAG_OFF	(1U << 4)
#define CPUIDLE_FLAG_TLB_FLUSHED (1U << 5)
#define CPUIDLE_FLAG_RCU_IDLE	(1U << 6)

/* states_usage[i].disable bits */
#define CPUIDLE_STATE_DISABLED_BY_USER		(1U << 0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER	(1U << 1)

struct cpuidle_state {
	char		name[CPUIDLE_NAME_LEN];
	char		desc[CPUIDLE_DESC_LEN];
	s64		exit_latency_ns;
	s64		target_residency_ns;
	unsigned int	flags;
	unsigned int	exit_latency;		/* us */
	unsigned int	target_residency;	/* us */
};

struct cpuidle_driver {
	const char		*name;
	struct cpuidle_state	states[CPUIDLE_STATE_MAX];
	int			state_count;
};

struct cpuidle_state_usage {
	unsigned long long	disable;
	unsigned long long	usage;
	u64			time_ns;
	unsigned long long	above;	/* entered state was too deep */
	unsigned long long	below;	/* a deeper state would have fit */
	unsigned long long	rejected;
};

struct idl_governor;
struct idl_explain;

struct cpuidle_device {
	unsigned int		cpu;
	int			last_state_idx;
	u64			last_residency_ns;
	u64			poll_limit_ns;
	bool			poll_time_limit;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];

	/* idlelab: the governor instance and its per-CPU private data */
	const struct idl_governor *governor;
	void			*governor_data;
	/* idlelab: non-NULL when the caller wants select() explained */
	struct idl_explain	*explain;
};

/*
 * The inputs a governor reads from the rest of the kernel, for one CPU and
 * one select() call.  The caller fills them before select() and reflect().
 */
struct idl_env {
	unsigned int hz;		/* the configured HZ (0: from tick_nsec) */
	s64	tick_nsec;		/* TICK_NSEC for the configured HZ */
	/* the simulated time now, ns: local_clock() of kernel-source
	 * governors (the select's time in select(), the wakeup's in
	 * reflect()) */
	u64	now_ns;
	s64	latency_req;		/* cpuidle_governor_latency_req(), ns */
	s64	sleep_length;		/* tick_nohz_get_sleep_length() result */
	s64	delta_tick;		/* ... and its delta_next out-parameter */
	bool	tick_stopped;		/* tick_nohz_tick_stopped() */
	bool	got_tick;		/* tick_nohz_idle_got_tick() (cleared on read) */
	/* written by the helpers, for explain/replay bookkeeping */
	bool	sleep_length_queried;
	/* hindsight, for the oracle only: the idle duration that will follow */
	s64	hindsight_idle_ns;
};

static inline s64 idl_hindsight_idle_ns(void);

extern __thread struct idl_env *idl_current_env;

static inline void idl_env_set_current(struct idl_env *env)
{
	idl_current_env = env;
}

/* Kernel helpers a governor calls, answered from the current environment. */
static inline s64 tick_nohz_get_sleep_length(s64 *delta_next)
{
	struct idl_env *env = idl_current_env;

	env->sleep_length_queried = true;
	*delta_next = env->delta_tick;
	return env->sleep_length;
}

static inline bool tick_nohz_tick_stopped(void)
{
	return idl_current_env->tick_stopped;
}

static inline bool tick_nohz_idle_got_tick(void)
{
	bool got = idl_current_env->got_tick;

	idl_current_env->got_tick = false;
	return got;
}

static inline s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	(void)cpu;
	return idl_current_env->latency_req;
}

#define TICK_NSEC	(idl_current_env->tick_nsec)

static inline s64 idl_hindsight_idle_ns(void)
{
	return idl_current_env->hindsight_idle_ns;
}

static inline s64 idl_tick_nsec_for_hz(unsigned int hz)
{
	return ((s64)NSEC_PER_SEC + hz / 2) / hz;
}

/*
 * Governor tunables: a small table of named integer parameters per
 * governor.  Each instance of a governor (e.g. "teo" and "teo:pulse=512"
 * side by side in one replay) has its own copy of the values.
 */
#define IDL_GOV_MAX_PARAMS	8
#define IDL_GOV_SPEC_LEN	256	/* canonical "NAME:param=value,..." */

struct idl_gov_param {
	const char	*name;
	const char	*help;
	long long	def;		/* the kernel's value */
	long long	min, max;
};

/*
 * Governor internals for the scores (replay): the governor reports named
 * counters of one device, e.g. ("intercepts", "C6", 1234).  Counters of
 * kind IDL_STAT_SUM are added over CPUs; IDL_STAT_LAST are per-CPU values
 * at the end of the trace, shown as their mean over CPUs.  A replay keeps
 * IDL_STAT_MAX counters per governor; names are cut to IDL_STAT_NAME_LEN
 * - 1 and keys to IDL_STAT_KEY_LEN - 1 characters.
 */
#define IDL_STAT_MAX		64
#define IDL_STAT_NAME_LEN	24
#define IDL_STAT_KEY_LEN	16
enum idl_stat_kind { IDL_STAT_SUM, IDL_STAT_LAST };
typedef void (*idl_stat_fn)(void *ctx, const char *name, const char *key,
			    long long value, enum idl_stat_kind kind);

struct idl_governor_ops {
	const char	*name;
	unsigned int	rating;
	const char	*kernel_version;	/* the kernel this copy follows */
	size_t		data_size;		/* per-CPU private data */
	const struct idl_gov_param *params;	/* NULL-name terminated */

	int	(*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void	(*disable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	int	(*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			  bool *stop_tick);
	void	(*reflect)(struct cpuidle_device *dev, int index);
	/* optional: summarise private state for --explain (may be NULL) */
	void	(*explain_state)(struct cpuidle_device *dev,
				 struct idl_explain *ex);
	/* optional: needs hindsight (oracle); select() then reads
	 * idl_hindsight_idle_ns() */
	bool	needs_hindsight;
	/* optional: report what the governor learnt on @dev (see above) */
	void	(*stats)(struct cpuidle_driver *drv, struct cpuidle_device *dev,
			 idl_stat_fn emit, void *ctx);
};

/* A configured governor: the ops plus this instance's tunable values. */
struct idl_governor {
	const struct idl_governor_ops	*ops;
	long long			param[IDL_GOV_MAX_PARAMS];
	char				spec[IDL_GOV_SPEC_LEN];	/* "teo:pulse=512" */
};

static inline void *gov_data(struct cpuidle_device *dev)
{
	return dev->governor_data;
}

static inline long long gov_param(const struct cpuidle_device *dev, int i)
{
	return dev->governor->param[i];
}

/* Explain hook: a no-op unless the caller asked for explanations. */
void idl_explain_printf(struct idl_explain *ex, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define gov_explain(dev, ...)						\
	do {								\
		if (__builtin_expect((dev)->explain != NULL, 0))	\
			idl_explain_printf((dev)->explain, __VA_ARGS__); \
	} while (0)

/*
 * Plugins.  A governor plugin is a shared object that defines the symbol
 * idl_plugin, e.g. with IDL_DEFINE_PLUGIN(my_ops, "what it is"); it is
 * built against this header (pkg-config idlelab) and loaded by naming
 * its path where a governor is named (-g ./my.so:param=value).  The ABI
 * version and the sizes of the structures it shares with idlelab must
 * match the loading idlelab's.  doc/plugins.md has a complete example.
 */
#define IDL_GOVERNOR_ABI	1

struct idl_plugin {
	unsigned int	abi;		/* IDL_GOVERNOR_ABI at build time */
	unsigned int	sizes[4];	/* IDL_PLUGIN_SIZES at build time */
	const struct idl_governor_ops *ops;
	const char	*origin;	/* free text: what it was built from */
};

#define IDL_PLUGIN_SIZES { sizeof(struct idl_governor_ops),		\
			   sizeof(struct cpuidle_device),		\
			   sizeof(struct cpuidle_driver),		\
			   sizeof(struct idl_env) }

#define IDL_DEFINE_PLUGIN(ops_var, origin_text)				\
	__attribute__((visibility("default")))				\
	const struct idl_plugin idl_plugin = {				\
		IDL_GOVERNOR_ABI, IDL_PLUGIN_SIZES, &(ops_var), (origin_text) \
	}

/*
 * Registry: the built-in governors, then those registered at run time
 * (plugins), in one NULL-terminated list.  idl_governor_register()
 * refuses a name already taken or holding ':' ',' '=' (-1, message in
 * @err).  Not thread-safe: register before replaying.
 */
#define IDL_MAX_GOVERNORS	64
const struct idl_governor_ops *idl_governor_find(const char *name);
const struct idl_governor_ops *const *idl_governor_list(void);
int idl_governor_register(const struct idl_governor_ops *ops, char *err,
			  size_t errlen);

/*
 * Parse "NAME[:param=value,...]" into @gov.  On error returns -1 and writes
 * a message (listing the valid governors or parameters) into @err.
 */
int idl_governor_parse(struct idl_governor *gov, const char *spec,
		       char *err, size_t errlen);

/* Every tunable of @gov back to its default. */
void idl_governor_defaults(struct idl_governor *gov);

/*
 * Set the tunables named in @params ("param=value,...") that @gov has;
 * others are ignored (a kernel-source build lacks idlelab's own knobs).
 * -1 with a message for a value out of range or not a number.
 */
int idl_governor_apply(struct idl_governor *gov, const char *params,
		       char *err, size_t errlen);

/* Every tunable of @gov as "param=value,..." ("" if it has none). */
void idl_governor_params(const struct idl_governor *gov, char *buf,
			 size_t len);

/*
 * Bind a governor instance to a device: allocate and zero its private data
 * and call enable().  idl_governor_detach() calls disable() and frees it.
 */
int idl_governor_attach(struct cpuidle_device *dev,
			const struct idl_governor *gov,
			struct cpuidle_driver *drv);
void idl_governor_detach(struct cpuidle_device *dev,
			 struct cpuidle_driver *drv);

#ifdef __cplusplus
}
#endif

#endif /* IDLELAB_GOVERNOR_H */
