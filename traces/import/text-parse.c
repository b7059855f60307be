// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text traces: the ftrace "trace" / "trace_pipe" files and the output of
 * "trace-cmd report".  Both print one event per line as
 *
 *   [INSTANCE: ]COMM-PID [CPU] [FLAGS] SECONDS.FRACTION: EVENT: FIELDS
 *
 * with 6 (usec) or 9 (nsec) fraction digits.  Only the events of
 * events.h are decoded; other lines are skipped.  A known event with a
 * field that cannot be read is an error "file:line: ...".
 *
 * This is the general line parser: it takes every layout the formats
 * allow and defines what a line means.  The importers read most lines
 * through the fast path of text-fast.c, which gives the same events for
 * the lines it takes and hands the others here.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "text-import.h"

static int bad(const struct line_ctx *l, const char *what)
{
	return idl_err_at_line(l->err, l->path, l->lineno, "%s: %s",
			       l->event, what);
}

/* Start of the value of " key=" in @s (key at start or after a space). */
static const char *field(const char *s, const char *key)
{
	size_t n = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key))) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') && p[n] == '=')
			return p + n + 1;
		p += n;
	}
	return NULL;
}

static int get_num(const struct line_ctx *l, const char *key, int base,
		   bool is_signed, uint64_t *v, bool required)
{
	const char *s = field(l->fields, key);
	char *end;
	char msg[96];

	if (!s) {
		if (!required)
			return 1;
		snprintf(msg, sizeof(msg), "no %s= field", key);
		return bad(l, msg);
	}
	errno = 0;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (is_signed)
		*v = (uint64_t)strtoll(s, &end, base);
	else
		*v = strtoull(s, &end, base);
	if (end == s || errno || (*end && *end != ' ' && *end != '\t' &&
				  *end != ']' && *end != ',')) {
		snprintf(msg, sizeof(msg), "bad %s= value", key);
		return bad(l, msg);
	}
	return 0;
}

/* A signed 32-bit field (irq, pid, success): no silent truncation. */
static int get_i32(const struct line_ctx *l, const char *key, int32_t *v)
{
	uint64_t u;
	int64_t s;
	char msg[96];

	if (get_num(l, key, 10, true, &u, true))
		return -1;
	s = (int64_t)u;
	if (s < INT32_MIN || s > INT32_MAX) {
		snprintf(msg, sizeof(msg), "%s= value out of range", key);
		return bad(l, msg);
	}
	*v = (int32_t)s;
	return 0;
}

/* Function name of "function=NAME[+0x..]": hash and tick test. */
static int get_function(const struct line_ctx *l, struct raw_event *e)
{
	const char *s = field(l->fields, "function");
	char name[128];
	size_t n = 0;

	if (!s)
		return bad(l, "no function= field");
	while (s[n] && !strchr(" +/\t", s[n]) && n < sizeof(name) - 1) {
		name[n] = s[n];
		n++;
	}
	name[n] = 0;
	if (!n)
		return bad(l, "empty function= field");
	e->timer.fn = ev_name_hash(name);
	e->timer.is_tick = ev_is_tick_function(name);
	return 0;
}

static int parse_idle(const struct line_ctx *l, struct raw_event *e)
{
	uint64_t st, cpu;

	if (get_num(l, "state", 10, true, &st, true) ||
	    get_num(l, "cpu_id", 10, false, &cpu, true))
		return -1;
	/* exits print as 4294967295 (u32) or -1 (older signed format) */
	if ((int64_t)st == -1 || st == 4294967295ULL)
		st = EV_IDLE_EXIT;
	else if (st > 1000)
		return bad(l, "state out of range");
	if (cpu >= TRACE_MAX_CPUS)
		return bad(l, "cpu_id out of range");
	e->idle.state = (uint32_t)st;
	e->idle.cpu_id = (uint32_t)cpu;
	return 0;
}

static int parse_miss(const struct line_ctx *l, struct raw_event *e)
{
	uint64_t st, cpu;
	const char *t = field(l->fields, "type");

	if (get_num(l, "cpu_id", 10, false, &cpu, true) ||
	    get_num(l, "state", 10, false, &st, true))
		return -1;
	if (!t || (strncmp(t, "above", 5) && strncmp(t, "below", 5)))
		return bad(l, "type= is not above or below");
	if (st > 1000)
		return bad(l, "state out of range");
	if (cpu >= TRACE_MAX_CPUS)
		return bad(l, "cpu_id out of range");
	e->miss.cpu_id = (uint32_t)cpu;
	e->miss.state = (uint32_t)st;
	e->miss.below = t[0] == 'b';
	return 0;
}

/* timer_start: "cpu=%u ... flags=M|D|P|I [timeout=%ld] bucket_expiry=" */
static int parse_wheel_start(const struct line_ctx *l, struct raw_event *e)
{
	const char *t = strstr(l->fields, "[timeout=");
	const char *f = field(l->fields, "flags");
	uint64_t cpu, b;
	long long timeout;
	char *end;
	int r;

	if (get_num(l, "cpu", 10, false, &cpu, true))
		return -1;
	if (cpu > EV_TIMER_CPUMASK)
		return bad(l, "cpu out of range");
	e->timer.flags = (uint32_t)cpu;
	for (; f && *f && *f != ' '; f++)
		if (*f == 'D')
			e->timer.flags |= EV_TIMER_DEFERRABLE;
		else if (*f == 'P')
			e->timer.flags |= EV_TIMER_PINNED;
	if (t) {
		errno = 0;
		timeout = strtoll(t + 9, &end, 10);
		if (end == t + 9 || errno || *end != ']')
			return bad(l, "bad [timeout=] value");
		/* jiffies wrap: modular arithmetic, as the kernel's */
		e->timer.now = (uint64_t)e->timer.expires - (uint64_t)timeout;
		e->timer.has_now = true;
	}
	r = get_num(l, "bucket_expiry", 10, false, &b, false);
	if (r < 0)
		return -1;
	if (r == 0) {
		e->timer.bucket_expiry = b;
		e->timer.has_bucket = true;
	}
	r = get_num(l, "idx", 10, false, &b, false);
	if (r < 0)
		return -1;
	if (r == 0) {
		if (b >= EV_TIMER_IDX_MAX)
			return bad(l, "idx out of range");
		e->timer.flags |= (uint32_t)b << EV_TIMER_ARRAYSHIFT;
		e->timer.has_idx = true;
	}
	return 0;
}

static int parse_timer(const struct line_ctx *l, struct raw_event *e,
		       const char *ptr_key)
{
	uint64_t v;

	if (get_num(l, ptr_key, 16, false, &e->timer.timer, true))
		return -1;
	switch (e->type) {
	case EV_HRTIMER_START:
		if (get_function(l, e) ||
		    get_num(l, "expires", 10, true, &v, true))
			return -1;
		e->timer.expires = (int64_t)v;
		break;
	case EV_HRTIMER_EXPIRE_ENTRY:
		if (get_function(l, e) ||
		    get_num(l, "now", 10, true, &e->timer.now, true))
			return -1;
		e->timer.has_now = true;
		break;
	case EV_TIMER_START:
		if (get_function(l, e) ||
		    get_num(l, "expires", 10, false, &v, true))
			return -1;
		e->timer.expires = (int64_t)v;
		return parse_wheel_start(l, e);
	case EV_TIMER_EXPIRE_ENTRY:
		if (get_function(l, e) ||
		    get_num(l, "now", 10, false, &e->timer.now, true))
			return -1;
		e->timer.has_now = true;
		break;
	default:
		break;
	}
	return 0;
}

/* Before 5.7 "pm_qos_class=NAME value=N" (since: CPU latency only). */
static void parse_qos_request(const struct line_ctx *l, struct raw_event *e)
{
	const char *c = field(l->fields, "pm_qos_class");

	e->qreq.other = c && strncmp(c, "CPU_DMA_LATENCY", 15) &&
			strncmp(c, "1 ", 2);
}

/* "device=cpu3 type=DEV_PM_QOS_RESUME_LATENCY new_value=N" (the type
 * printed as 0x1 where the enum is not known to the printer). */
static void parse_dev_qos_request(const struct line_ctx *l,
				  struct raw_event *e)
{
	const char *d = field(l->fields, "device");
	const char *t = field(l->fields, "type");

	e->dqreq.cpu = -1;
	if (!d || !t || (strncmp(t, "DEV_PM_QOS_RESUME_LATENCY ", 26) &&
			 strncmp(t, "0x1 ", 4) && strncmp(t, "1 ", 2)))
		return;
	e->dqreq.cpu = ev_cpu_device(d, strcspn(d, " "));
}

static int parse_misc(const struct line_ctx *l, struct raw_event *e)
{
	uint64_t v;

	switch (e->type) {
	case EV_TICK_STOP:
		return get_i32(l, "success", &e->tick_stop.success);
	case EV_PM_QOS_UPDATE:
		return get_i32(l, "prev_value", &e->qos.prev) ||
		       get_i32(l, "curr_value", &e->qos.curr) ? -1 : 0;
	case EV_PM_QOS_REQUEST:
		parse_qos_request(l, e);
		return 0;
	case EV_DEV_QOS_REQUEST:
		parse_dev_qos_request(l, e);
		return 0;
	case EV_IRQ_HANDLER_ENTRY:
	case EV_IRQ_HANDLER_EXIT:
		return get_i32(l, "irq", &e->irq.irq);
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
		return get_i32(l, "vec", &e->irq.irq);
	case EV_VEC_ENTRY:
	case EV_VEC_IPI_ENTRY:
	case EV_VEC_EXIT:
		return get_i32(l, "vector", &e->irq.irq);
	case EV_PROBE_SLEEP:
	case EV_PROBE_RESIDENCY:
		if (get_num(l, "ns", 10, true, &v, true))
			return -1;
		e->probe.value = (int64_t)v;
		return 0;
	case EV_PROBE_GOT_TICK:
		if (get_num(l, "tick", 10, false, &v, true))
			return -1;
		e->probe.value = v != 0;
		return 0;
	case EV_IPI_SEND_CPU:
		if (get_num(l, "cpu", 10, false, &v, true))
			return -1;
		if (v >= TRACE_MAX_CPUS)
			return bad(l, "cpu out of range");
		e->ipi.target = (uint32_t)v;
		return 0;
	default:
		return 0;
	}
}

/* "target_cpu=002" (events) or "CPU:002" (trace-cmd's sched plugin). */
static int parse_wakeup(const struct line_ctx *l, struct raw_event *e)
{
	const char *s = strstr(l->fields, "target_cpu=");
	char *end;
	long v;

	if (s)
		s += strlen("target_cpu=");
	else if ((s = strstr(l->fields, "CPU:")))
		s += 4;
	else
		return bad(l, "no target_cpu= field");
	v = strtol(s, &end, 10);
	if (end == s || v < 0 || v >= TRACE_MAX_CPUS)
		return bad(l, "bad target_cpu= value");
	e->wakeup.target_cpu = (int32_t)v;
	return 0;
}

/* pid of "comm:pid [prio]" (trace-cmd's sched plugin) ending at @end. */
static int plugin_pid(const char *start, const char *end, int32_t *pid)
{
	const char *br = NULL, *p, *colon = NULL;
	long v;

	for (p = start; p + 1 < end; p++)
		if (p[0] == ' ' && p[1] == '[')
			br = p;
	if (!br)
		return -1;
	for (p = start; p < br; p++)
		if (*p == ':')
			colon = p;
	if (!colon || !isdigit((unsigned char)colon[1]))
		return -1;
	errno = 0;
	v = strtol(colon + 1, NULL, 10);
	if (errno || v > INT32_MAX)
		return -1;
	*pid = (int32_t)v;
	return 0;
}

static int parse_switch(const struct line_ctx *l, struct raw_event *e)
{
	const char *arrow = strstr(l->fields, "==>");

	if (field(l->fields, "prev_pid"))
		return get_i32(l, "prev_pid", &e->sw.prev_pid) ||
		       get_i32(l, "next_pid", &e->sw.next_pid) ? -1 : 0;
	if (!arrow || plugin_pid(l->fields, arrow, &e->sw.prev_pid) ||
	    plugin_pid(arrow + 3, arrow + strlen(arrow), &e->sw.next_pid))
		return bad(l, "no prev_pid/next_pid");
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* cpumask: hex, most significant digit first, commas between words. */
static int emit_cpumask(const struct line_ctx *l, struct raw_event *e,
			import_sink sink, void *ctx)
{
	const char *s = field(l->fields, "cpumask"), *end;
	unsigned int bit = 0;
	int v, i;

	if (!s)
		return bad(l, "no cpumask= field");
	for (end = s; *end && *end != ' '; end++)
		;
	if (end == s)
		return bad(l, "empty cpumask");
	while (end-- > s) {
		if (*end == ',')
			continue;
		v = hexval(*end);
		if (v < 0)
			return bad(l, "bad cpumask= value");
		for (i = 0; i < 4; i++, bit++) {
			if (!(v & (1 << i)) || bit >= TRACE_MAX_CPUS)
				continue;
			e->ipi.target = bit;
			if (sink(ctx, e, l->err))
				return -1;
		}
	}
	return 0;
}

/* "SUBSYSTEM:NAME" as perf script prints an event: the subsystem must be
 * the event's own. */
uint16_t text_event_with_system(const char *name, size_t len)
{
	const char *colon = memchr(name, ':', len), *sys;
	size_t n;
	uint16_t type;

	if (!colon)
		return EV_NONE;
	n = (size_t)(colon - name);
	type = text_event_by_name(colon + 1, len - n - 1);
	sys = ev_system(type);
	return sys && strlen(sys) == n && !memcmp(name, sys, n) ? type :
	       EV_NONE;
}

int text_decode(const struct line_ctx *l, struct raw_event *e,
		import_sink sink, void *ctx)
{
	switch (e->type) {
	case EV_CPU_IDLE:
		if (parse_idle(l, e))
			return -1;
		break;
	case EV_CPU_IDLE_MISS:
		if (parse_miss(l, e))
			return -1;
		break;
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
	case EV_HRTIMER_EXPIRE_ENTRY:
		if (parse_timer(l, e, "hrtimer"))
			return -1;
		break;
	case EV_TIMER_START:
	case EV_TIMER_CANCEL:
	case EV_TIMER_EXPIRE_ENTRY:
		if (parse_timer(l, e, "timer"))
			return -1;
		break;
	case EV_IPI_SEND_CPUMASK:
		return emit_cpumask(l, e, sink, ctx);
	case EV_SCHED_WAKEUP:
		if (parse_wakeup(l, e))
			return -1;
		break;
	case EV_SCHED_SWITCH:
		if (parse_switch(l, e))
			return -1;
		break;
	default:
		if (parse_misc(l, e))
			return -1;
	}
	return sink(ctx, e, l->err);
}

/* Decimal digits of @tok[*i..len) into @v; false when they overflow. */
static bool add_digits(const char *tok, size_t len, size_t *i, uint64_t *v)
{
	for (; *i < len && isdigit((unsigned char)tok[*i]); (*i)++) {
		uint64_t d = (uint64_t)(tok[*i] - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return false;
		*v = *v * 10 + d;
	}
	return true;
}

/* Latest time taken (~146 years in ns): the model's arithmetic range. */
#define IMPORT_TS_MAX	(1ULL << 62)

/* parse_ts() results besides 1 and 0 */
#define TS_RANGE	(-1)
#define TS_COUNTER	2

/*
 * "12345.678901:" -> ns.  Returns 1, 0 if @tok is not a timestamp,
 * TS_RANGE if it is one past IMPORT_TS_MAX (one that does not fit in
 * 64-bit nanoseconds must not wrap silently into a plausible time), or
 * TS_COUNTER for "12345:", a clock that does not count ns (counter,
 * uptime, x86-tsc, ...).
 */
static int parse_ts(const char *tok, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;
	bool fits;

	if (len < 2 || tok[len - 1] != ':')
		return 0;
	len--;
	fits = add_digits(tok, len, &i, &sec);
	for (; i < len && isdigit((unsigned char)tok[i]); i++)
		;	/* the rest of an overflowing number */
	if (!i)
		return 0;
	if (i == len)
		return TS_COUNTER;
	if (tok[i++] != '.')
		return 0;
	for (; i < len && isdigit((unsigned char)tok[i]); i++, digits++)
		if (digits < 9)
			frac = frac * 10 + (uint64_t)(tok[i] - '0');
	if (i != len || !digits)
		return 0;
	for (; digits < 9; digits++)
		frac *= 10;
	if (!fits || sec > (UINT64_MAX - frac) / 1000000000ULL)
		return TS_RANGE;
	*ns = sec * 1000000000ULL + frac;
	return *ns <= IMPORT_TS_MAX ? 1 : TS_RANGE;
}

/* A lost-events line; a CPU out of range gives TRACE_MAX_CPUS (an error
 * for the caller: the loss must not be put on CPU 0 silently). */
static bool lost_line(const char *s, struct raw_event *e)
{
	unsigned long cpu;
	unsigned long long n;

	/* ftrace and trace-cmd ("NAME: CPU:1 [12 EVENTS DROPPED]") */
	if (sscanf(s, "CPU:%lu [LOST %llu EVENTS]", &cpu, &n) != 2 &&
	    sscanf(s, "CPU:%lu [%llu EVENTS DROPPED]", &cpu, &n) != 2)
		return false;
	e->type = EV_LOST;
	e->cpu = cpu < TRACE_MAX_CPUS ? (uint32_t)cpu : TRACE_MAX_CPUS;
	e->lost.count = n;
	return true;
}

/* Find "[CPU]" followed by a timestamp; fills @e->cpu/ts, the event name
 * span and the fields start.  Returns the CPU field position or NULL.
 * *@ts_bad is parse_ts()'s result when it is not 1. */
static char *split_line(char *s, struct raw_event *e, char **name,
			char **fields, int *ts_bad)
{
	char *p = s, *q, *tok;
	unsigned long cpu;
	int guard, ts;

	while ((p = strchr(p, '['))) {
		cpu = strtoul(p + 1, &q, 10);
		if (q == p + 1 || *q != ']' || (q[1] != ' ' && q[1] != '\t')) {
			p++;
			continue;
		}
		tok = q + 1;
		for (guard = 0; guard < 2; guard++) {
			size_t n;

			while (*tok == ' ' || *tok == '\t')
				tok++;
			n = strcspn(tok, " \t");
			ts = parse_ts(tok, n, &e->ts);
			if (ts) {
				*ts_bad = ts != 1 ? ts : 0;
				tok += n;
				while (*tok == ' ' || *tok == '\t')
					tok++;
				n = strcspn(tok, " \t");
				if (n < 2 || tok[n - 1] != ':')
					break;
				tok[n - 1] = 0;
				*name = tok;
				*fields = tok + n + (tok[n] ? 1 : 0);
				text_task_column(s, p, e);
				e->cpu = (uint32_t)(cpu < TRACE_MAX_CPUS ?
						    cpu : TRACE_MAX_CPUS);
				return p;
			}
			/* the irq-info flags column, "dNh1." */
			e->ctx = text_flags_column(tok, n);
			tok += n;
		}
		p++;
	}
	return NULL;
}

/* "12us!:", the time and delay marker of trace_options latency-format */
static bool latency_time(const char *s, const char *end)
{
	for (; s + 4 < end; s++)
		if (isdigit((unsigned char)s[0]) && s[1] == 'u' &&
		    s[2] == 's' && strchr(" !#*+@$", s[3]) && s[4] == ':')
			return true;
	return false;
}

/*
 * A line that split_line() could not read: an error if it holds a
 * cpu_idle event, since a period's entry or exit left out changes the
 * periods around it.  The layouts users meet are named.
 */
static int unread_line(const char *path, unsigned long lineno,
		       const char *line, struct idl_err *err)
{
	const char *ev = strstr(line, "cpu_idle: state=");

	if (!ev)
		return 0;
	if (ev == line + strspn(line, " \t"))
		return idl_err_at_line(err, path, lineno, "cpu_idle event "
			"without task, CPU and time (trace_options "
			"nocontext-info): capture with context-info on");
	if (latency_time(line, ev))
		return idl_err_at_line(err, path, lineno, "cpu_idle event in "
			"the latency-format layout, whose times are relative "
			"and in us: capture with trace_options "
			"nolatency-format");
	return idl_err_at_line(err, path, lineno, "cpu_idle event whose "
		"CPU or time cannot be read (expected COMM-PID [CPU] "
		"FLAGS SECONDS.FRACTION: cpu_idle: ...)");
}

int import_text_line(const char *path, unsigned long lineno, char *line,
		     const char *want, char *buffer, size_t buffer_len,
		     import_sink sink, void *ctx, struct idl_err *err)
{
	struct raw_event e;
	struct line_ctx l = { path, lineno, NULL, NULL, err };
	char *name, *fields, *cpu_at;
	size_t n = strcspn(line, "\r\n");
	int ts_bad = 0;

	line[n] = 0;
	buffer[0] = 0;
	cpu_at = NULL;
	memset(&e, 0, sizeof(e));
	if (lost_line(line, &e) ||
	    ((cpu_at = strstr(line, ": CPU:")) && lost_line(cpu_at + 2, &e))) {
		if (cpu_at && (size_t)(cpu_at - line) < buffer_len) {
			memcpy(buffer, line, (size_t)(cpu_at - line));
			buffer[cpu_at - line] = 0;
		}
		if (want && strcmp(want, buffer))
			return 0;
		if (e.cpu >= TRACE_MAX_CPUS)
			return idl_err_at_line(err, path, lineno,
					       "lost events: CPU out of range "
					       "(at most %d CPUs)",
					       TRACE_MAX_CPUS);
		return sink(ctx, &e, err);
	}
	if (line[0] == '#')
		return 0;
	cpu_at = split_line(line, &e, &name, &fields, &ts_bad);
	if (!cpu_at)
		return unread_line(path, lineno, line, err);
	e.type = text_event_type(name, strlen(name));
	if (e.type == EV_NONE)
		return 0;
	/* "NAME: comm-pid [cpu]": a trace-cmd instance prefix */
	if (line[0] != ' ' && line[0] != '\t') {
		char *c = strstr(line, ": ");

		if (c && c < cpu_at && (size_t)(c - line) < buffer_len &&
		    !memchr(line, ' ', (size_t)(c - line))) {
			memcpy(buffer, line, (size_t)(c - line));
			buffer[c - line] = 0;
		}
	}
	if (want && strcmp(want, buffer))
		return 0;
	if (ts_bad == TS_RANGE)
		return idl_err_at_line(err, path, lineno,
				       "timestamp out of range");
	if (ts_bad == TS_COUNTER)
		return idl_err_at_line(err, path, lineno, "timestamp without "
			"a fraction: the trace clock does not count ns "
			"(counter, uptime, x86-tsc?): capture with "
			"trace_clock local, global, mono or boot");
	if (e.cpu >= TRACE_MAX_CPUS)
		return idl_err_at_line(err, path, lineno,
				       "CPU out of range (at most %d CPUs)",
				       TRACE_MAX_CPUS);
	l.event = name;
	l.fields = fields;
	return text_decode(&l, &e, sink, ctx);
}
