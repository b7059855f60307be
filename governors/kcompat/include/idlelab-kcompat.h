/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * idlelab's kernel compatibility layer for cpuidle governor sources.
 *
 * `idlelab governor build` compiles a kernel governor file (menu.c,
 * teo.c, ladder.c, haltpoll.c of any kernel from 5.1 on, or one in their
 * style) unchanged, with this header forced in first.  It defines what
 * those files use from the rest of the kernel, with the kernel's types
 * and semantics: 64-bit ktime_t, u64/s64 arithmetic, do_div() and
 * friends, per-CPU variables, module parameters, the tick and QoS
 * helpers, and struct cpuidle_* with both the us and ns fields.  The
 * headers under linux/, asm/ and trace/ are empty: their #include lines
 * only have to resolve.
 *
 * IDL_KC_VERSION (LINUX_VERSION_CODE of the source; the build detects
 * it or takes --kernel) selects what changed across versions:
 * cpuidle_governor_latency_req() in us (int) before 5.7, in ns (s64)
 * after; the *_ns state fields unsigned from 5.7 to 5.14, signed after.
 */
#ifndef IDLELAB_KCOMPAT_H
#define IDLELAB_KCOMPAT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../kc-bridge.h"

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + \
				 ((c) > 255 ? 255 : (c)))
#ifndef IDL_KC_VERSION
#define IDL_KC_VERSION		KERNEL_VERSION(6, 18, 0)
#endif
#define LINUX_VERSION_CODE	IDL_KC_VERSION

/* ---- types --------------------------------------------------------- */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef s64 ktime_t;
typedef unsigned int uint;

struct list_head {
	struct list_head *next, *prev;
};
struct module;

/* ---- attributes and annotations ------------------------------------ */

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define __init
#define __exit
#define __initdata
#define __read_mostly
#define __cacheline_aligned
#undef __always_inline		/* glibc's <sys/cdefs.h> has one */
#define __always_inline		inline __attribute__((always_inline))
#define __maybe_unused		__attribute__((unused))
#define __must_check
#define noinline		__attribute__((noinline))
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define MODULE_LICENSE(s)
#define MODULE_AUTHOR(s)
#define MODULE_DESCRIPTION(s)
#define MODULE_PARM_DESC(n, s)
#define THIS_MODULE		((struct module *)0)
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(c)		((void)sizeof(char[1 - 2 * !!(c)]))
#define WARN_ON(c)		({ int __c = !!(c); __c; })
#define WARN_ON_ONCE(c)		WARN_ON(c)
#define BUG_ON(c)		do { if (c) __builtin_trap(); } while (0)
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()		__asm__ __volatile__("" ::: "memory")

static inline __attribute__((format(printf, 1, 2)))
int idl_kc_printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}
#define printk(...)		idl_kc_printk(__VA_ARGS__)
#define pr_err(...)		idl_kc_printk(__VA_ARGS__)
#define pr_warn(...)		idl_kc_printk(__VA_ARGS__)
#define pr_info(...)		idl_kc_printk(__VA_ARGS__)
#define pr_debug(...)		idl_kc_printk(__VA_ARGS__)

/* ---- constants ------------------------------------------------------ */

#define NSEC_PER_USEC		1000L
#define NSEC_PER_MSEC		1000000L
#define NSEC_PER_SEC		1000000000L
#define USEC_PER_MSEC		1000L
#define USEC_PER_SEC		1000000L
#define MSEC_PER_SEC		1000L
#define KTIME_MAX		((s64)~((u64)1 << 63))
#define KTIME_MIN		(-KTIME_MAX - 1)
#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define S32_MAX			((s32)(U32_MAX >> 1))
#define S64_MAX			((s64)(U64_MAX >> 1))
#define SCHED_CAPACITY_SCALE	1024L
#define CONFIG_SMP		1
#define CONFIG_NO_HZ_COMMON	1
#define CONFIG_CPU_IDLE		1
#define NR_CPUS			KC_SLOTS

/* HZ and the tick period of the replayed kernel, per call. */
#define HZ			((long)kc_env->hz)
#define TICK_NSEC		((long)kc_env->tick_nsec)
#define TICK_USEC		((USEC_PER_SEC + HZ / 2) / HZ)

/* ---- arithmetic (64-bit kernels) ------------------------------------ */

#define min(x, y)	({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); \
			   __x < __y ? __x : __y; })
#define max(x, y)	({ __typeof__(x) __x = (x); __typeof__(y) __y = (y); \
			   __x > __y ? __x : __y; })
#define min_t(t, x, y)	({ t __x = (x); t __y = (y); __x < __y ? __x : __y; })
#define max_t(t, x, y)	({ t __x = (x); t __y = (y); __x > __y ? __x : __y; })
#define clamp(v, lo, hi)	min(max(v, lo), hi)
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, v, lo), hi)
#define clamp_val(v, lo, hi)	clamp_t(__typeof__(v), v, lo, hi)

/* do_div(n, base): n (u64) becomes n / base; the remainder is returned. */
#define do_div(n, base)	({ u32 __b = (base); u32 __r;			\
			   __r = (u32)((u64)(n) % __b);			\
			   (n) = (u64)(n) / __b; __r; })
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define DIV_ROUND_UP_ULL(n, d)	div64_u64((u64)(n) + (d) - 1, (d))
#define DIV_ROUND_CLOSEST(x, d)	({ __typeof__(x) __x = (x);		\
				   __typeof__(d) __d = (d);		\
				   (((__typeof__(x))-1) > 0 || __x > 0) ?	\
				   (__x + __d / 2) / __d :		\
				   (__x - __d / 2) / __d; })
#define DIV_ROUND_CLOSEST_ULL(x, d)	({ u32 __d = (d);		\
					   unsigned long long __x = (x) + __d / 2; \
					   do_div(__x, __d); __x; })

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 divisor)
{
	return (u64)(((unsigned __int128)a * mul) / divisor);
}

/* The kernel's integer square root: the floor of sqrt(x). */
static inline unsigned long int_sqrt(unsigned long x)
{
	unsigned long b, m, y = 0;

	if (x <= 1)
		return x;
	m = 1UL << ((63 - __builtin_clzl(x)) & ~1UL);
	while (m != 0) {
		b = y + m;
		y >>= 1;
		if (x >= b) {
			x -= b;
			y += m;
		}
		m >>= 2;
	}
	return y;
}

/* ---- ktime ---------------------------------------------------------- */

static inline s64 ktime_to_ns(const ktime_t kt)
{
	return kt;
}

static inline ktime_t ns_to_ktime(u64 ns)
{
	return (ktime_t)ns;
}

static inline s64 ktime_divns(const ktime_t kt, s64 div)
{
	return kt / div;
}

static inline s64 ktime_to_us(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_USEC);
}

static inline s64 ktime_to_ms(const ktime_t kt)
{
	return ktime_divns(kt, NSEC_PER_MSEC);
}

#define ktime_sub(a, b)		((a) - (b))
#define ktime_add(a, b)		((a) + (b))
#define ktime_add_ns(kt, ns)	((kt) + (ns))
#define ktime_sub_ns(kt, ns)	((kt) - (ns))
#define ktime_before(a, b)	((a) < (b))
#define ktime_after(a, b)	((a) > (b))
#define ktime_compare(a, b)	((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

/* The replayed time: a select's in select(), its wakeup's in reflect(). */
static inline ktime_t ktime_get(void)
{
	return (ktime_t)kc_env->now_ns;
}

static inline u64 local_clock(void)
{
	return kc_env->now_ns;
}

static inline u64 sched_clock(void)
{
	return kc_env->now_ns;
}

/*
 * ---- per-CPU data: one copy per replayed device ---------------------
 *
 * A governor's per-CPU variables go into one section; each slot (the
 * "CPU" of a replayed device) gets its own copy of it, apart from the
 * others' as each CPU's per-CPU area is in the kernel: a write past one
 * variable lands in the next one of the same slot, never in another
 * slot's, whatever thread runs which (replay -j).
 */
#define KC_SLOTS		4096
extern __thread int kc_cpu;	/* the slot of the current call */
void *kc_percpu(int slot, const void *var);

#define DEFINE_PER_CPU(type, name) \
	__attribute__((section("kc_percpu_data"))) __typeof__(type) name
#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name
#define per_cpu_ptr(ptr, cpu)	((__typeof__(ptr))kc_percpu((cpu), (ptr)))
#define per_cpu(var, cpu)		(*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_ptr(ptr)		per_cpu_ptr(ptr, kc_cpu)
#define raw_cpu_ptr(ptr)		per_cpu_ptr(ptr, kc_cpu)
#define __this_cpu_read(var)		(*this_cpu_ptr(&(var)))
#define __this_cpu_write(var, v)	(*this_cpu_ptr(&(var)) = (v))
#define this_cpu_read(var)		__this_cpu_read(var)
#define smp_processor_id()		kc_cpu
#define raw_smp_processor_id()		kc_cpu
#define get_cpu()			kc_cpu
#define put_cpu()			do { } while (0)

/* ---- module parameters: the governor's tunables --------------------- */

void kc_param_add(const char *name, int type, void *var);

#define KC_PT_bool	KC_P_BOOL
#define KC_PT_int	KC_P_INT
#define KC_PT_uint	KC_P_UINT
#define KC_PT_long	KC_P_LONG
#define KC_PT_ulong	KC_P_ULONG
#define KC_PT_short	KC_P_SHORT
#define KC_PT_ushort	KC_P_USHORT
#define KC_PT_byte	KC_P_BYTE

/* (type is pasted, never expanded: "bool" is a macro of <stdbool.h>) */
#define module_param_named(name, var, type, perm)			\
	__attribute__((constructor(200))) static void			\
	kc_param_##name(void)						\
	{								\
		kc_param_add(#name, KC_PT_##type, &(var));		\
	}
#define module_param(name, type, perm)					\
	__attribute__((constructor(200))) static void			\
	kc_param_##name(void)						\
	{								\
		kc_param_add(#name, KC_PT_##type, &(name));		\
	}

/* ---- registration ---------------------------------------------------- */

#define KC_INITCALL(fn)							\
	__attribute__((constructor(210))) static void kc_init_##fn(void) \
	{								\
		(void)fn();						\
	}
#define core_initcall(fn)	KC_INITCALL(fn)
#define postcore_initcall(fn)	KC_INITCALL(fn)
#define arch_initcall(fn)	KC_INITCALL(fn)
#define subsys_initcall(fn)	KC_INITCALL(fn)
#define fs_initcall(fn)		KC_INITCALL(fn)
#define device_initcall(fn)	KC_INITCALL(fn)
#define late_initcall(fn)	KC_INITCALL(fn)
#define module_init(fn)		KC_INITCALL(fn)
#define module_exit(fn)

/* ---- cpuidle --------------------------------------------------------- */

#define CPUIDLE_STATE_MAX	KC_STATE_MAX
#define CPUIDLE_NAME_LEN	KC_NAME_LEN
#define CPUIDLE_DESC_LEN	KC_DESC_LEN

#define CPUIDLE_FLAG_NONE	(0x00)
#define CPUIDLE_FLAG_POLLING	BIT(0)
#define CPUIDLE_FLAG_COUPLED	BIT(1)
#define CPUIDLE_FLAG_TIMER_STOP	BIT(2)
#define CPUIDLE_FLAG_UNUSABLE	BIT(3)
#define CPUIDLE_FLAG_OFF	BIT(4)
#define CPUIDLE_FLAG_TLB_FLUSHED BIT(5)
#define CPUIDLE_FLAG_RCU_IDLE	BIT(6)

#define CPUIDLE_STATE_DISABLED_BY_USER		BIT(0)
#define CPUIDLE_STATE_DISABLED_BY_DRIVER	BIT(1)

#if IDL_KC_VERSION >= KERNEL_VERSION(5, 7, 0) && \
	IDL_KC_VERSION < KERNEL_VERSION(5, 15, 0)
typedef u64 kc_residency_t;	/* 5.7-5.14: u64 */
#else
typedef s64 kc_residency_t;
#endif

struct cpuidle_device;
struct cpuidle_driver;

struct cpuidle_state {
	char		name[CPUIDLE_NAME_LEN];
	char		desc[CPUIDLE_DESC_LEN];
	kc_residency_t	exit_latency_ns;
	kc_residency_t	target_residency_ns;
	unsigned int	flags;
	unsigned int	exit_latency;		/* us */
	int		power_usage;
	unsigned int	target_residency;	/* us */
	bool		disabled;		/* before 5.5 */
	int (*enter)(struct cpuidle_device *dev, struct cpuidle_driver *drv,
		     int index);
};

struct cpuidle_state_usage {
	unsigned long long	disable;
	unsigned long long	usage;
	u64			time_ns;
	unsigned long long	time;		/* us, before 5.6 */
	unsigned long long	above;
	unsigned long long	below;
	unsigned long long	rejected;
};

struct cpuidle_device {
	unsigned int		registered:1;
	unsigned int		enabled:1;
	unsigned int		poll_time_limit:1;
	unsigned int		cpu;
	ktime_t			next_hrtimer;
	int			last_state_idx;
	int			last_residency;		/* us, before 5.8 */
	u64			last_residency_ns;
	u64			poll_limit_ns;
	u64			forced_idle_latency_limit_ns;
	struct cpuidle_state_usage states_usage[CPUIDLE_STATE_MAX];
};

struct cpuidle_driver {
	const char		*name;
	struct module		*owner;
	unsigned int		bctimer:1;
	struct cpuidle_state	states[CPUIDLE_STATE_MAX];
	int			state_count;
	int			safe_state_index;
};

struct cpuidle_governor {
	char			name[CPUIDLE_NAME_LEN];
	struct list_head	governor_list;
	unsigned int		rating;
	int  (*enable)(struct cpuidle_driver *drv, struct cpuidle_device *dev);
	void (*disable)(struct cpuidle_driver *drv,
			struct cpuidle_device *dev);
	int  (*select)(struct cpuidle_driver *drv, struct cpuidle_device *dev,
		       bool *stop_tick);
	void (*reflect)(struct cpuidle_device *dev, int index);
	struct module		*owner;
};

int cpuidle_register_governor(struct cpuidle_governor *gov);

/* The latency limit: us in an int before 5.7, ns in an s64 since. */
#if IDL_KC_VERSION < KERNEL_VERSION(5, 7, 0)
static inline int cpuidle_governor_latency_req(unsigned int cpu)
{
	s64 us = kc_env->latency_req_ns / NSEC_PER_USEC;

	(void)cpu;
	return us > INT_MAX ? INT_MAX : (int)us;
}
#else
static inline s64 cpuidle_governor_latency_req(unsigned int cpu)
{
	(void)cpu;
	return kc_env->latency_req_ns;
}
#endif

/* ---- the tick --------------------------------------------------------- */

static const bool tick_nohz_enabled = true;

/*
 * tick_nohz_get_sleep_length(&delta_next) since 4.17, (void) before:
 * both spellings call this (the argument, or a null pointer).
 */
static inline ktime_t kc_sleep_length(ktime_t *delta_next)
{
	kc_env->queried = true;
	if (delta_next)
		*delta_next = kc_env->delta_tick;
	return kc_env->sleep_length;
}
#define tick_nohz_get_sleep_length(...)	kc_sleep_length((__VA_ARGS__ + 0))

static inline bool tick_nohz_tick_stopped(void)
{
	return kc_env->tick_stopped;
}

static inline bool tick_nohz_idle_got_tick(void)
{
	bool got = kc_env->got_tick;

	kc_env->got_tick = false;
	return got;
}

/* ---- the scheduler: what an idle CPU in a trace reports -------------- */

static inline unsigned int nr_iowait_cpu(int cpu)
{
	(void)cpu;
	return 0;
}

static inline unsigned long nr_iowait(void)
{
	return 0;
}

static inline unsigned long sched_cpu_util(int cpu)
{
	(void)cpu;
	return 0;
}

static inline unsigned long arch_scale_cpu_capacity(int cpu)
{
	(void)cpu;
	return SCHED_CAPACITY_SCALE;
}

static inline bool kvm_para_available(void)
{
	return true;
}

static inline bool cpu_online(unsigned int cpu)
{
	(void)cpu;
	return true;
}

/* ---- trace events: not traced here ------------------------------------ */

#define trace_guest_halt_poll_ns(grow, new, old)	do { } while (0)
#define trace_guest_halt_poll_ns_grow(new, old)		do { } while (0)
#define trace_guest_halt_poll_ns_shrink(new, old)	do { } while (0)
#define trace_cpu_idle(state, cpu)			do { } while (0)
#define trace_cpu_idle_miss(cpu, state, below)		do { } while (0)

#endif /* IDLELAB_KCOMPAT_H */
