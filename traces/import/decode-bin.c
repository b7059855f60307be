// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Binary ring-buffer records (trace.dat via libtracecmd, a live instance
 * via libtracefs) -> normalized events.  Field offsets are looked up once
 * per event format with libtraceevent; decoding a record only reads
 * numbers at known offsets.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <event-parse.h>

#include "decode-bin.h"

static const struct {
	const char	*sys, *name;
	uint16_t	type;
	const char	*f[4];		/* fields, in bin_fmt.f order */
} wanted[] = {
	{ "power", "cpu_idle", EV_CPU_IDLE, { "state", "cpu_id" } },
	{ "power", "cpu_idle_miss", EV_CPU_IDLE_MISS,
	  { "cpu_id", "state", "below" } },
	{ "timer", "hrtimer_start", EV_HRTIMER_START,
	  { "hrtimer", "function", "expires" } },
	{ "timer", "hrtimer_cancel", EV_HRTIMER_CANCEL, { "hrtimer" } },
	{ "timer", "hrtimer_expire_entry", EV_HRTIMER_EXPIRE_ENTRY,
	  { "hrtimer", "function", "now" } },
	{ "timer", "timer_start", EV_TIMER_START,
	  { "timer", "function", "expires", "flags" } },
	{ "timer", "timer_cancel", EV_TIMER_CANCEL, { "timer" } },
	{ "timer", "timer_expire_entry", EV_TIMER_EXPIRE_ENTRY,
	  { "timer", "function", "now" } },
	{ "timer", "tick_stop", EV_TICK_STOP, { "success" } },
	{ "irq", "irq_handler_entry", EV_IRQ_HANDLER_ENTRY, { "irq" } },
	{ "irq", "irq_handler_exit", EV_IRQ_HANDLER_EXIT, { "irq" } },
	{ "irq", "softirq_entry", EV_SOFTIRQ_ENTRY, { "vec" } },
	{ "irq", "softirq_exit", EV_SOFTIRQ_EXIT, { "vec" } },
	{ "irq_vectors", "local_timer_entry", EV_VEC_ENTRY, { "vector" } },
	{ "irq_vectors", "irq_work_entry", EV_VEC_ENTRY, { "vector" } },
	{ "irq_vectors", "reschedule_entry", EV_VEC_IPI_ENTRY, { "vector" } },
	{ "irq_vectors", "call_function_entry", EV_VEC_IPI_ENTRY,
	  { "vector" } },
	{ "irq_vectors", "call_function_single_entry", EV_VEC_IPI_ENTRY,
	  { "vector" } },
	{ "irq_vectors", "local_timer_exit", EV_VEC_EXIT, { "vector" } },
	{ "irq_vectors", "irq_work_exit", EV_VEC_EXIT, { "vector" } },
	{ "irq_vectors", "reschedule_exit", EV_VEC_EXIT, { "vector" } },
	{ "irq_vectors", "call_function_exit", EV_VEC_EXIT, { "vector" } },
	{ "irq_vectors", "call_function_single_exit", EV_VEC_EXIT,
	  { "vector" } },
	{ "ipi", "ipi_send_cpu", EV_IPI_SEND_CPU, { "cpu" } },
	{ "ipi", "ipi_send_cpumask", EV_IPI_SEND_CPUMASK, { "cpumask" } },
	{ "sched", "sched_wakeup", EV_SCHED_WAKEUP, { "target_cpu" } },
	{ "sched", "sched_switch", EV_SCHED_SWITCH,
	  { "prev_pid", "next_pid" } },
	{ "power", "pm_qos_update_target", EV_PM_QOS_UPDATE,
	  { "prev_value", "curr_value" } },
	{ "power", "pm_qos_add_request", EV_PM_QOS_REQUEST, { "value" } },
	{ "power", "pm_qos_update_request", EV_PM_QOS_REQUEST, { "value" } },
	{ "power", "pm_qos_remove_request", EV_PM_QOS_REQUEST, { "value" } },
	{ "power", "dev_pm_qos_add_request", EV_DEV_QOS_REQUEST,
	  { "name", "type" } },
	{ "power", "dev_pm_qos_update_request", EV_DEV_QOS_REQUEST,
	  { "name", "type" } },
	{ "power", "dev_pm_qos_remove_request", EV_DEV_QOS_REQUEST,
	  { "name", "type" } },
	/* kprobes: a user's (group "kprobes") or record's own, any group */
	{ NULL, "idlelab_sleep_length", EV_PROBE_SLEEP, { "ns" } },
	{ NULL, "idlelab_residency", EV_PROBE_RESIDENCY, { "ns" } },
	{ NULL, "idlelab_got_tick", EV_PROBE_GOT_TICK, { "tick" } },
};

#define NR_WANTED	(sizeof(wanted) / sizeof(wanted[0]))
/* every event read must find a slot: the probes come last */
_Static_assert(NR_WANTED <= BIN_MAX_FMTS, "BIN_MAX_FMTS too small");

int bin_decoder_init(struct bin_decoder *d, struct tep_handle *tep)
{
	size_t i;
	int j;

	memset(d, 0, sizeof(*d));
	d->tep = tep;
	for (i = 0; i < NR_WANTED && d->n < BIN_MAX_FMTS; i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, wanted[i].sys,
							      wanted[i].name);
		struct bin_fmt *f = &d->fmt[d->n];

		if (!ev)
			continue;
		f->id = ev->id;
		f->type = wanted[i].type;
		for (j = 0; j < 4 && wanted[i].f[j]; j++) {
			f->f[j] = tep_find_field(ev, wanted[i].f[j]);
			if (!f->f[j])
				break;
		}
		if (j < 4 && wanted[i].f[j])
			continue;	/* a needed field is missing: skip */
		if (f->type == EV_TIMER_START) {
			f->bucket = tep_find_field(ev, "bucket_expiry");
			f->now = tep_find_field(ev, "now");
		}
		if (f->type == EV_PM_QOS_REQUEST)
			f->qos_class = tep_find_field(ev, "pm_qos_class");
		d->n++;
	}
	return d->n;
}

static unsigned long long num(const struct tep_format_field *f,
			      const struct tep_record *r)
{
	unsigned long long v = 0;

	tep_read_number_field((struct tep_format_field *)f, r->data, &v);
	return v;
}

static long long snum(const struct tep_format_field *f,
		      const struct tep_record *r)
{
	unsigned long long v = num(f, r);

	/* sign-extend fields narrower than 64 bits */
	if (f->size < 8 && (f->flags & TEP_FIELD_IS_SIGNED) &&
	    (v & (1ULL << (f->size * 8 - 1))))
		v |= ~0ULL << (f->size * 8);
	return (long long)v;
}

static void function_of(struct bin_decoder *d, const struct tep_format_field *f,
			const struct tep_record *r, struct raw_event *e)
{
	unsigned long long addr = num(f, r);
	const char *name = tep_find_function(d->tep, addr);
	char hex[24];

	if (!name) {
		snprintf(hex, sizeof(hex), "0x%llx", addr);
		name = hex;
		d->no_symbols = true;
	}
	e->timer.fn = ev_name_hash(name);
	e->timer.is_tick = ev_is_tick_function(name);
}

/* The bytes of the __data_loc field @fld of @r (*@len of them), NULL if
 * they would run past the record. */
static const unsigned char *data_loc(struct tep_format_field *fld,
				     const struct tep_record *r,
				     unsigned int *len)
{
	unsigned long long loc = num(fld, r);
	unsigned int off = loc & 0xffff;

	*len = (loc >> 16) & 0xffff;
	if (off + *len > (unsigned int)r->size)
		return NULL;
	return (const unsigned char *)r->data + off;
}

static int cpumask(const struct bin_fmt *f, const struct tep_record *r,
		   struct raw_event *e, import_sink sink, void *ctx,
		   struct idl_err *err)
{
	unsigned int len, bit;
	const unsigned char *p = data_loc(f->f[0], r, &len);

	if (!p)
		return 0;
	/* little-endian longs: byte i holds CPUs 8i..8i+7 */
	for (bit = 0; bit < len * 8 && bit < TRACE_MAX_CPUS; bit++) {
		if (!(p[bit / 8] & (1U << (bit % 8))))
			continue;
		e->ipi.target = bit;
		if (sink(ctx, e, err))
			return -1;
	}
	return 0;
}

/* The CPU of a "cpuN" device's resume-latency request, else -1 (the
 * kernel's enum value of DEV_PM_QOS_RESUME_LATENCY is 1). */
static int32_t dev_qos_cpu(const struct bin_fmt *f, const struct tep_record *r)
{
	unsigned int len;
	const unsigned char *s = data_loc(f->f[0], r, &len);

	if (!s || num(f->f[1], r) != 1)
		return -1;
	return ev_cpu_device((const char *)s, len);
}

static void decode_timer(struct bin_decoder *d, const struct bin_fmt *f,
			 const struct tep_record *r, struct raw_event *e)
{
	e->timer.timer = num(f->f[0], r);
	switch (f->type) {
	case EV_HRTIMER_START:
		function_of(d, f->f[1], r, e);
		e->timer.expires = snum(f->f[2], r);
		break;
	case EV_HRTIMER_EXPIRE_ENTRY:
	case EV_TIMER_EXPIRE_ENTRY:
		function_of(d, f->f[1], r, e);
		e->timer.now = num(f->f[2], r);
		e->timer.has_now = true;
		break;
	case EV_TIMER_START:
		function_of(d, f->f[1], r, e);
		e->timer.expires = (int64_t)num(f->f[2], r);
		e->timer.flags = (uint32_t)num(f->f[3], r);
		e->timer.has_idx = true;	/* the flags carry it (4.8+) */
		if (f->bucket) {
			e->timer.bucket_expiry = num(f->bucket, r);
			e->timer.has_bucket = true;
		}
		if (f->now) {
			e->timer.now = num(f->now, r);
			e->timer.has_now = true;
		}
		break;
	default:
		break;
	}
}

/* The context of a record whose common_flags are @kflags and common_pid
 * @pid (-1 each when the record has no such field). */
static uint8_t bin_ctx(int kflags, int pid)
{
	uint8_t task = pid < 0 ? 0 : EV_CTX_TASK_KNOWN |
				     (pid ? 0 : EV_CTX_IDLE_TASK);

	if (kflags < 0)
		return task;
	return (uint8_t)(task | EV_CTX_KNOWN |
		(kflags & EV_KFLAG_NEED_RESCHED ? EV_CTX_RESCHED : 0) |
		(kflags & EV_KFLAG_HARDIRQ ? EV_CTX_HARDIRQ : 0) |
		(kflags & EV_KFLAG_SOFTIRQ ? EV_CTX_SOFTIRQ : 0));
}

int bin_decode(struct bin_decoder *d, const struct tep_record *r,
	       import_sink sink, void *ctx, struct idl_err *err)
{
	int id = tep_data_type(d->tep, (struct tep_record *)r), i;
	const struct bin_fmt *f = NULL;
	struct raw_event e;

	memset(&e, 0, sizeof(e));
	/* libtracecmd/libtracefs give the buffer's CPU: one idlelab cannot
	 * hold is an error, not silently CPU 0's */
	if (r->cpu < 0 || r->cpu >= TRACE_MAX_CPUS)
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "event on CPU %d (at most %d CPUs)",
				   r->cpu, TRACE_MAX_CPUS);
	e.cpu = (uint32_t)r->cpu;
	if (r->missed_events) {
		e.type = EV_LOST;
		e.ts = r->ts;
		e.lost.count = r->missed_events > 0 ?
			       (uint64_t)r->missed_events : 1;
		if (sink(ctx, &e, err))
			return -1;
	}
	for (i = 0; i < d->n; i++)
		if (d->fmt[i].id == id) {
			f = &d->fmt[i];
			break;
		}
	if (!f)
		return 0;
	e.type = f->type;
	e.ts = r->ts;
	e.pid = tep_data_pid(d->tep, (struct tep_record *)r);
	e.ctx = bin_ctx(tep_data_flags(d->tep, (struct tep_record *)r),
			e.pid);
	switch (f->type) {
	case EV_CPU_IDLE:
		e.idle.state = (uint32_t)num(f->f[0], r);
		e.idle.cpu_id = (uint32_t)num(f->f[1], r);
		if (e.idle.cpu_id >= TRACE_MAX_CPUS)
			return 0;
		break;
	case EV_CPU_IDLE_MISS:
		e.miss.cpu_id = (uint32_t)num(f->f[0], r);
		e.miss.state = (uint32_t)num(f->f[1], r);
		e.miss.below = num(f->f[2], r) != 0;
		if (e.miss.cpu_id >= TRACE_MAX_CPUS)
			return 0;
		break;
	case EV_TICK_STOP:
		e.tick_stop.success = (int32_t)snum(f->f[0], r);
		break;
	case EV_IRQ_HANDLER_ENTRY:
	case EV_IRQ_HANDLER_EXIT:
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
	case EV_VEC_ENTRY:
	case EV_VEC_IPI_ENTRY:
	case EV_VEC_EXIT:
		e.irq.irq = (int32_t)snum(f->f[0], r);
		break;
	case EV_IPI_SEND_CPU:
		e.ipi.target = (uint32_t)num(f->f[0], r);
		if (e.ipi.target >= TRACE_MAX_CPUS)
			return 0;
		break;
	case EV_IPI_SEND_CPUMASK:
		return cpumask(f, r, &e, sink, ctx, err);
	case EV_SCHED_WAKEUP:
		e.wakeup.target_cpu = (int32_t)snum(f->f[0], r);
		break;
	case EV_SCHED_SWITCH:
		e.sw.prev_pid = (int32_t)snum(f->f[0], r);
		e.sw.next_pid = (int32_t)snum(f->f[1], r);
		break;
	case EV_PM_QOS_UPDATE:
		e.qos.prev = (int32_t)snum(f->f[0], r);
		e.qos.curr = (int32_t)snum(f->f[1], r);
		break;
	case EV_PM_QOS_REQUEST:
		e.qreq.other = f->qos_class && num(f->qos_class, r) != 1;
		break;
	case EV_DEV_QOS_REQUEST:
		e.dqreq.cpu = dev_qos_cpu(f, r);
		break;
	case EV_PROBE_SLEEP:
	case EV_PROBE_RESIDENCY:
		e.probe.value = snum(f->f[0], r);
		break;
	case EV_PROBE_GOT_TICK:
		e.probe.value = num(f->f[0], r) != 0;
		break;
	default:
		decode_timer(d, f, r, &e);
	}
	return sink(ctx, &e, err);
}

/* The format of @r's event if it is of @type, or NULL. */
static const struct bin_fmt *fmt_of(const struct bin_decoder *d,
				    const struct tep_record *r, uint16_t type)
{
	int id = tep_data_type(d->tep, (struct tep_record *)r), i;

	for (i = 0; i < d->n; i++)
		if (d->fmt[i].id == id && d->fmt[i].type == type)
			return &d->fmt[i];
	return NULL;
}

bool bin_cpumask_text(const struct bin_decoder *d,
		      const struct tep_record *r, char *buf, size_t len)
{
	const struct bin_fmt *f = fmt_of(d, r, EV_IPI_SEND_CPUMASK);
	const unsigned char *p;
	unsigned int bytes;
	size_t n = 0;
	int w, b;

	if (!f || !(p = data_loc(f->f[0], r, &bytes)) || !bytes ||
	    len < (bytes + 3) / 4 * 9 + 1)
		return false;
	/* little-endian longs: byte i holds CPUs 8i..8i+7 */
	for (w = (int)((bytes + 3) / 4) - 1; w >= 0; w--) {
		uint32_t word = 0;

		for (b = 3; b >= 0; b--)
			if ((unsigned int)(w * 4 + b) < bytes)
				word = word << 8 | p[w * 4 + b];
			else
				word <<= 8;
		n += (size_t)snprintf(buf + n, len - n, "%s%08x",
				      n ? "," : "", word);
	}
	return true;
}

bool bin_timer_flags_text(const struct bin_decoder *d,
			  const struct tep_record *r, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *name;
	} names[] = {
		{ EV_TIMER_MIGRATING, "M" }, { EV_TIMER_DEFERRABLE, "D" },
		{ EV_TIMER_PINNED, "P" }, { EV_TIMER_IRQSAFE, "I" },
	};
	const struct bin_fmt *f = fmt_of(d, r, EV_TIMER_START);
	uint32_t flags;
	size_t n = 0, k;

	if (!f)
		return false;
	flags = (uint32_t)num(f->f[3], r);
	buf[0] = '\0';
	for (k = 0; k < sizeof(names) / sizeof(names[0]) && n < len; k++)
		if (flags & names[k].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "|" : "", names[k].name);
	return true;
}
