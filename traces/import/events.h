/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One normalized kernel trace event, whatever it was read from (ftrace
 * text, trace-cmd report text, trace.dat, a live tracefs instance).  Only
 * the events and fields the idle-period model needs are kept; every
 * reader fills this fixed-size struct, so no event needs an allocation.
 */
#ifndef IDLELAB_EVENTS_H
#define IDLELAB_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ev_type {
	EV_NONE = 0,
	EV_CPU_IDLE,			/* power:cpu_idle */
	EV_CPU_IDLE_MISS,		/* power:cpu_idle_miss */
	EV_HRTIMER_START,		/* timer:hrtimer_start */
	EV_HRTIMER_CANCEL,		/* timer:hrtimer_cancel */
	EV_HRTIMER_EXPIRE_ENTRY,	/* timer:hrtimer_expire_entry */
	EV_TIMER_START,			/* timer:timer_start */
	EV_TIMER_CANCEL,		/* timer:timer_cancel */
	EV_TIMER_EXPIRE_ENTRY,		/* timer:timer_expire_entry */
	EV_TICK_STOP,			/* timer:tick_stop */
	EV_IRQ_HANDLER_ENTRY,		/* irq:irq_handler_entry */
	EV_IPI_SEND_CPU,		/* ipi:ipi_send_cpu */
	EV_IPI_SEND_CPUMASK,		/* ipi:ipi_send_cpumask, one per target */
	EV_SCHED_WAKEUP,		/* sched:sched_wakeup */
	EV_SCHED_SWITCH,		/* sched:sched_switch */
	EV_PM_QOS_UPDATE,		/* power:pm_qos_update_target */
	EV_PM_QOS_REQUEST,		/* power:pm_qos_{add,update,remove}_request */
	EV_DEV_QOS_REQUEST,		/* power:dev_pm_qos_{add,update,remove}_request */
	EV_IRQ_HANDLER_EXIT,		/* irq:irq_handler_exit */
	EV_SOFTIRQ_ENTRY,		/* irq:softirq_entry */
	EV_SOFTIRQ_EXIT,		/* irq:softirq_exit */
	EV_LOST,			/* the reader saw lost events */
	/* kprobe events that carry the kernel's own governor inputs
	 * (doc/importing.md, "Probed inputs"); after EV_LOST, so that a
	 * trace's events_seen bits of the others keep their meaning */
	EV_PROBE_SLEEP,			/* idlelab_sleep_length ns= */
	EV_PROBE_RESIDENCY,		/* idlelab_residency ns= */
	EV_PROBE_GOT_TICK,		/* idlelab_got_tick tick= */
	/* x86's system vectors (irq_vectors:*, vector=), which are no
	 * irq_handler_entry: the local APIC timer and irq_work are an IRQ
	 * like any other; the three IPI vectors are an IPI received */
	EV_VEC_ENTRY,			/* local_timer_, irq_work_entry */
	EV_VEC_IPI_ENTRY,		/* call_function(_single)_, reschedule_entry */
	EV_VEC_EXIT,			/* their *_exit */
	EV_TYPE_COUNT
};

/* The probe events: the kernel's own inputs, no part of the model. */
static inline bool ev_is_probe(uint16_t type)
{
	return type >= EV_PROBE_SLEEP && type <= EV_PROBE_GOT_TICK;
}

/* An interrupt handler's entry: an IRQ, or one of x86's vectors. */
static inline bool ev_is_irq_entry(uint16_t type)
{
	return type == EV_IRQ_HANDLER_ENTRY || type == EV_VEC_ENTRY ||
	       type == EV_VEC_IPI_ENTRY;
}

#define EV_IDLE_EXIT		UINT32_MAX	/* cpu_idle state of an exit */

/* Kernel timer-wheel flags (include/linux/timer.h, stable since 4.8). */
#define EV_TIMER_CPUMASK	0x0003FFFFU
#define EV_TIMER_MIGRATING	0x00040000U
#define EV_TIMER_DEFERRABLE	0x00080000U
#define EV_TIMER_PINNED		0x00100000U
#define EV_TIMER_IRQSAFE	0x00200000U
#define EV_TIMER_ARRAYSHIFT	22	/* the wheel index (idx=) above */
#define EV_TIMER_IDX_MAX	576	/* 9 levels of 64 buckets */

/* The tracefs subsystem of event @type ("power", "timer", ...), or NULL. */
const char *ev_system(uint16_t type);

/* Timer functions that are the scheduler tick (names across versions). */
bool ev_is_tick_function(const char *name);
/* 32-bit FNV-1a of a function name: the wake_detail of timer wakeups. */
uint32_t ev_name_hash(const char *name);
/* The same of the @n bytes at @name (a name in a longer string). */
bool ev_is_tick_function_n(const char *name, size_t n);
uint32_t ev_name_hash_n(const char *name, size_t n);
/* The CPU of a device named "cpuN" (the @n bytes at @name, or fewer up
 * to a NUL or a blank), or -1: the device of a resume-latency request. */
int32_t ev_cpu_device(const char *name, size_t n);

/*
 * struct raw_event.ctx: the context the event was traced in, from the
 * common flags (ftrace's irq-info column "dNh1.", common_flags of binary
 * records) when the input has them.
 */
#define EV_CTX_KNOWN		0x01	/* the flags below are valid */
#define EV_CTX_RESCHED		0x02	/* TIF_NEED_RESCHED was set */
#define EV_CTX_HARDIRQ		0x04	/* in a hard interrupt handler */
#define EV_CTX_SOFTIRQ		0x20	/* in softirq processing */
/* From the task column (common_pid), independently of the flags: */
#define EV_CTX_TASK_KNOWN	0x08	/* the bit below is valid */
#define EV_CTX_IDLE_TASK	0x10	/* in a CPU's idle task (pid 0) */

/* The event types whose task column (EV_CTX_TASK_KNOWN, pid) the model
 * reads: the interrupts that may end a period, and a task arming its
 * sleep timer.  Text readers leave it unset on the others (speed). */
#define EV_TASK_TYPES	(1U << EV_HRTIMER_START | \
			 1U << EV_HRTIMER_EXPIRE_ENTRY | \
			 1U << EV_TIMER_EXPIRE_ENTRY | \
			 1U << EV_IRQ_HANDLER_ENTRY | 1U << EV_VEC_ENTRY | \
			 1U << EV_VEC_IPI_ENTRY)

/* Kernel common_flags bits (kernel/trace/trace.h, stable since 2.6). */
#define EV_KFLAG_NEED_RESCHED	0x04
#define EV_KFLAG_HARDIRQ	0x08
#define EV_KFLAG_SOFTIRQ	0x10

struct raw_event {
	uint64_t	ts;		/* ns of the trace clock */
	uint64_t	seq;		/* input order, breaks timestamp ties */
	uint32_t	cpu;		/* CPU whose buffer holds the event */
	uint16_t	type;		/* enum ev_type */
	uint8_t		ctx;		/* EV_CTX_* */
	int32_t		pid;		/* the task's (EV_CTX_TASK_KNOWN) */
	union {
		struct {
			uint32_t state;		/* EV_IDLE_EXIT on exit */
			uint32_t cpu_id;
		} idle;
		struct {
			uint32_t cpu_id;
			uint32_t state;
			bool below;
		} miss;
		struct {		/* hrtimer_* and timer_* */
			uint64_t timer;		/* object address (or hash) */
			int64_t expires;	/* hrtimer: base ns; wheel: jiffies */
			uint64_t bucket_expiry;	/* wheel only, jiffies */
			uint64_t now;		/* expire: base ns / jiffies */
			uint32_t flags;		/* wheel: TIMER_* incl. CPU */
			uint32_t fn;		/* ev_name_hash(function) */
			bool is_tick;		/* function is the tick handler */
			bool has_bucket;	/* bucket_expiry present */
			bool has_idx;		/* wheel index in flags */
			bool has_now;		/* now present */
		} timer;
		struct {
			int32_t success;
		} tick_stop;
		struct {
			int32_t irq;		/* softirqs, x86: the vector */
		} irq;
		struct {
			uint32_t target;	/* IPI target CPU */
		} ipi;
		struct {
			int32_t target_cpu;
			int32_t pid;
		} wakeup;
		struct {
			int32_t prev_pid;
			int32_t next_pid;
		} sw;
		struct {		/* a PM QoS constraint, us */
			int32_t prev;		/* before */
			int32_t curr;		/* and after */
		} qos;
		struct {		/* what the next qos event is */
			bool other;	/* not CPU latency (a class < 5.7) */
		} qreq;
		struct {
			int32_t cpu;	/* its CPU's resume latency, or -1 */
		} dqreq;
		struct {
			uint64_t count;
		} lost;
		struct {		/* EV_PROBE_* */
			int64_t value;
		} probe;
	};
};

#endif /* IDLELAB_EVENTS_H */
