/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hand-built kernel events and a model that collects the periods it
 * emits, for the model's unit tests (check_model*.c).
 * HZ = 250 throughout: TICK_NSEC = 4 000 000 ns.
 */
#ifndef IDLELAB_TESTS_MODEL_EVENTS_H
#define IDLELAB_TESTS_MODEL_EVENTS_H

#include <check.h>
#include <string.h>

#include "model.h"

#define MAXP 16
#define HRW 2900147900U /* FNV-1a("hrtimer_wakeup"), by python */
#define PTO 3785204466U /* FNV-1a("process_timeout") */
#define TICK0 0x1000 /* tick hrtimer of CPU 0 */
#define TICK1 0x1100

static struct idle_period got[MAXP];
static int ngot;

static inline int collect(void *ctx, const struct idle_period *p,
			  struct idl_err *err)
{
	(void)ctx;
	(void)err;
	ck_assert_int_lt(ngot, MAXP);
	got[ngot++] = *p;
	return 0;
}

static inline struct model *mk(bool mono)
{
	struct model_opts o = { .hz = 250,
				.clock_is_mono = mono,
				.poll_state = -1 };
	struct idl_err err;
	struct model *m = model_create(&o, collect, NULL, &err);

	ck_assert_ptr_nonnull(m);
	ngot = 0;
	return m;
}

/* ---- event builders */
static inline struct raw_event ev(uint16_t type, uint64_t ts, uint32_t cpu)
{
	struct raw_event e;

	memset(&e, 0, sizeof(e));
	e.type = type;
	e.ts = ts;
	e.cpu = cpu;
	return e;
}

static inline struct raw_event idle(uint64_t ts, uint32_t cpu, uint32_t state)
{
	struct raw_event e = ev(EV_CPU_IDLE, ts, cpu);

	e.idle.state = state;
	e.idle.cpu_id = cpu;
	return e;
}

static inline struct raw_event hr(uint16_t type, uint64_t ts, uint32_t cpu,
				  uint64_t ptr, int64_t expires, bool tick,
				  uint32_t fn)
{
	struct raw_event e = ev(type, ts, cpu);

	e.timer.timer = ptr;
	e.timer.expires = expires;
	e.timer.is_tick = tick;
	e.timer.fn = fn;
	if (type == EV_HRTIMER_EXPIRE_ENTRY) {
		e.timer.now = (uint64_t)expires;
		e.timer.has_now = true;
	}
	return e;
}

/* @e on CPU 0's idle task, in context @ctx (EV_CTX_HARDIRQ, ..., or 0),
 * as a capture with ftrace's irq-info column has it */
static inline struct raw_event at(struct raw_event e, uint8_t ctx)
{
	e.ctx = EV_CTX_KNOWN | EV_CTX_TASK_KNOWN | EV_CTX_IDLE_TASK | ctx;
	return e;
}

/* An interrupt event of CPU 0's idle task: irq_handler_*, x86's vectors */
static inline struct raw_event irq(uint16_t type, uint64_t ts, int32_t nr)
{
	struct raw_event e = at(ev(type, ts, 0), EV_CTX_HARDIRQ);

	e.irq.irq = nr;
	return e;
}

/* CPU 0's tick handler running at @ts */
static inline struct raw_event tick_expire(uint64_t ts)
{
	return at(hr(EV_HRTIMER_EXPIRE_ENTRY, ts, 0, TICK0, (int64_t)ts, true,
		     1), EV_CTX_HARDIRQ);
}

static inline struct raw_event wheel(uint64_t ts, uint32_t cpu, uint64_t ptr,
				     uint64_t now_j, uint64_t bucket,
				     uint32_t flags)
{
	struct raw_event e = ev(EV_TIMER_START, ts, cpu);

	e.timer.timer = ptr;
	e.timer.expires = (int64_t)bucket;
	e.timer.bucket_expiry = bucket;
	e.timer.has_bucket = true;
	e.timer.now = now_j;
	e.timer.has_now = true;
	e.timer.flags = flags;
	e.timer.fn = PTO;
	return e;
}

static inline struct raw_event sw(uint64_t ts, uint32_t cpu, int prev, int next)
{
	struct raw_event e = ev(EV_SCHED_SWITCH, ts, cpu);

	e.sw.prev_pid = prev;
	e.sw.next_pid = next;
	return e;
}

static inline void feed(struct model *m, const struct raw_event *e, int n)
{
	struct idl_err err;
	int i;

	for (i = 0; i < n; i++)
		ck_assert_int_eq(model_feed(m, &e[i], &err), 0);
}

static inline void finish(struct model *m)
{
	struct idl_err err;

	ck_assert_int_eq(model_finish(m, &err), 0);
}

#endif /* IDLELAB_TESTS_MODEL_EVENTS_H */
