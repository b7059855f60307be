// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tick as the governor's inputs see it: which period a tick handler
 * run counts for (got_idle_tick, read at reflect), and the next timer
 * event that the tick stop after a select programs (the timer part of
 * that select's sleep length), and the tick running again.  The event
 * handlers (model-ev-idle.c, model-ev-timer.c) call these as the events
 * come.
 */
#include "config.h"

#include "model-int.h"

/*
 * The tick stop after a select programs the tick's timer to what
 * tick_nohz_next_event() computed for that select's sleep length (the
 * timer wheel, the hierarchy's timers when the CPU must wake for them,
 * RCU, the timekeeping limit), or cancels it when there is none: the
 * kernel's own answer, timers armed before the capture included.  It
 * is not traced when the tick already stood there.
 */
void model_stop_programmed(struct cpu_state *c, int64_t exp)
{
	c->stop_next = exp;
	c->stop_next_known = true;
}

/*
 * At an entry: the next event the select's tick stop programmed.  With
 * the tick stopped before the select and nothing re-programmed since,
 * the kernel found it unchanged: where the tick's timer stands.
 */
void model_next_at_select(struct cpu_state *c)
{
	c->next_at_sel = c->stop_next;
	c->next_at_sel_known = c->stop_next_known;
	if (!c->stop_next_known && c->stop_snap && c->tick_stopped &&
	    c->tick.known != TK_UNKNOWN) {
		c->next_at_sel = c->tick.known == TK_PENDING ? c->tick.exp :
				 NONE;
		c->next_at_sel_known = true;
	}
	c->stop_next_known = false;
}

/*
 * A tick among the interrupts taken at the exit of a period that nothing
 * woke inside (the driver entered with interrupts off): it was pending
 * at the exit and ran before reflect.  Where IPIs are not traced as IRQs
 * (x86), a period an IPI or wakeup reached was woken by that; a tick
 * after it came later.
 */
static bool in_wake_chain(const struct cpu_state *c)
{
	return c->chain != CH_NONE && !c->c.in_period &&
	       (c->chain == CH_IRQ || !(c->c.ipi_ts || c->c.wake_ts));
}

/*
 * The tick was due after @t (a trace time, 0: unknown): not pending
 * then.  @due is turned into trace time with the clock offset, which
 * still holds the path from the hrtimer code's clock read to the stamp
 * (1.0 us in the lab's guest, doc/lab.md): it may be that much late.
 */
#define DUE_SLACK_NS	1000
static bool due_after(int64_t due, uint64_t t)
{
	return due != NONE && t && due > (int64_t)t + DUE_SLACK_NS;
}

/*
 * A tick due by the exit was pending there: it is taken among the
 * interrupts at the exit, as interrupts come back on, before reflect,
 * whatever woke the period (an x86 lab capture: an IPI taken inside
 * the period, the tick due 1 us before the exit and run 1 us after it,
 * got_tick 1; one due 3 us after the exit ran after reflect, 0).
 */
static bool pending_at_exit(const struct cpu_state *c, int64_t due)
{
	return c->chain != CH_NONE && due != NONE &&
	       !due_after(due, c->exit_ns);
}

/* A tick due by the switch to the idle task, taken in the idle task
 * before its first period: it ran as the switch enabled interrupts. */
static bool before_idle_loop(const struct cpu_state *c, int64_t due)
{
	return c->phase == PH_LOOP && !c->closing && due != NONE &&
	       c->idle_switch_ts && due <= (int64_t)c->idle_switch_ts;
}

/*
 * The tick handler sets the kernel's got_idle_tick whenever it runs in
 * the idle loop, and the next reflect reads and clears it.  So a tick
 * inside a period, or taken as the wake interrupt right after the exit
 * (drivers that enter with interrupts off: in_wake_chain(), or within
 * TICK_WAKE_NS when nothing else was seen, before reflect), is that
 * period's, and may be its cause (true); one later in the idle task is
 * the next period's; one in a task is nobody's.  Without the task column
 * a tick in the window after the exit counts for the period.  @due is
 * when the tick was due (trace time, NONE: unknown).  A tick due after
 * the chain's last IRQ left came after reflect: the next period's, if
 * the loop goes on (loop_ending: a task runs next, and the loop's end,
 * or do_idle() itself in recent kernels, clears the flag).  And one due
 * before the switch to the idle task ran as the switch enabled
 * interrupts, before the idle loop (tick_nohz_idle_enter()) set its
 * in-idle flag: nobody's (lab captures' kprobes on menu_reflect and
 * tick_nohz_idle_got_tick() showed each, doc/importing.md).
 */
bool model_tick_seen(struct model *m, struct cpu_state *c,
		     const struct raw_event *e, int64_t due)
{
	bool first = !(c->c.ts || c->c.ipi_ts || c->c.wake_ts), mine;

	if (c->phase == PH_IDLE)
		mine = true;
	else if (!(e->ctx & EV_CTX_TASK_KNOWN))
		mine = model_collecting(m, c, e->ts);
	else if (!(e->ctx & EV_CTX_IDLE_TASK))
		return false;
	else
		mine = c->closing &&
		       ((first && e->ts <= c->exit_ns + TICK_WAKE_NS) ||
			(in_wake_chain(c) && !due_after(due, c->chain_exit_ts)) ||
			pending_at_exit(c, due));
	if (mine)
		c->c.got_tick = true;
	else if ((e->ctx & EV_CTX_IDLE_TASK) && !before_idle_loop(c, due) &&
		 !c->loop_ending)
		c->tick_latch = true;
	return mine;
}

/* The tick of @c runs (again) from @ts. */
void model_tick_runs(struct cpu_state *c, uint64_t ts)
{
	if (c->tick_stopped)
		c->restart_ts = ts;
	c->tick_stopped = false;
}
