/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the text importers: the general line parser (text-parse.c), its
 * fast path (text-fast.c) and the chunked reader of text files
 * (text-chunk.c) that the scan (import-text.c) and the run (text-run.c)
 * parse them with.
 */
#ifndef IDLELAB_TEXT_IMPORT_H
#define IDLELAB_TEXT_IMPORT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "import.h"

/* One known event's line, for its decoder and its messages. */
struct line_ctx {
	const char	*path;
	unsigned long	lineno;
	const char	*event;		/* the event name */
	const char	*fields;	/* what follows "NAME: " */
	struct idl_err	*err;
};

/* @name (@len bytes) is the literal @s: the event @type.  The size is a
 * constant, so the compare is a few inlined word compares. */
#define NAME_IS(s, type) \
	do { \
		if (len == sizeof(s) - 1 && !memcmp(name, s, sizeof(s) - 1)) \
			return type; \
	} while (0)

/*
 * The known events, told apart by their length first (the most frequent
 * of a length tried first): one compare per line, as this runs for every
 * line of a capture, twice; inline in both parsers.  EV_NONE if not known.
 */
static inline __attribute__((always_inline))
uint16_t text_event_by_name(const char *name, size_t len)
{
	switch (len) {
	case 8:
		NAME_IS("cpu_idle", EV_CPU_IDLE);
		break;
	case 9:
		NAME_IS("tick_stop", EV_TICK_STOP);
		break;
	case 11:
		NAME_IS("timer_start", EV_TIMER_START);
		break;
	case 12:
		NAME_IS("softirq_exit", EV_SOFTIRQ_EXIT);
		NAME_IS("sched_wakeup", EV_SCHED_WAKEUP);
		NAME_IS("ipi_send_cpu", EV_IPI_SEND_CPU);
		NAME_IS("sched_switch", EV_SCHED_SWITCH);
		NAME_IS("timer_cancel", EV_TIMER_CANCEL);
		break;
	case 13:
		NAME_IS("hrtimer_start", EV_HRTIMER_START);
		NAME_IS("cpu_idle_miss", EV_CPU_IDLE_MISS);
		NAME_IS("softirq_entry", EV_SOFTIRQ_ENTRY);
		NAME_IS("irq_work_exit", EV_VEC_EXIT);
		break;
	case 14:
		NAME_IS("hrtimer_cancel", EV_HRTIMER_CANCEL);
		NAME_IS("irq_work_entry", EV_VEC_ENTRY);
		break;
	case 15:
		NAME_IS("reschedule_exit", EV_VEC_EXIT);
		break;
	case 16:
		NAME_IS("local_timer_exit", EV_VEC_EXIT);
		NAME_IS("ipi_send_cpumask", EV_IPI_SEND_CPUMASK);
		NAME_IS("irq_handler_exit", EV_IRQ_HANDLER_EXIT);
		NAME_IS("reschedule_entry", EV_VEC_IPI_ENTRY);
		NAME_IS("idlelab_got_tick", EV_PROBE_GOT_TICK);
		break;
	case 17:
		NAME_IS("local_timer_entry", EV_VEC_ENTRY);
		NAME_IS("irq_handler_entry", EV_IRQ_HANDLER_ENTRY);
		NAME_IS("idlelab_residency", EV_PROBE_RESIDENCY);
		break;
	case 18:
		NAME_IS("timer_expire_entry", EV_TIMER_EXPIRE_ENTRY);
		NAME_IS("call_function_exit", EV_VEC_EXIT);
		NAME_IS("pm_qos_add_request", EV_PM_QOS_REQUEST);
		break;
	case 19:
		NAME_IS("call_function_entry", EV_VEC_IPI_ENTRY);
		break;
	case 20:
		NAME_IS("hrtimer_expire_entry", EV_HRTIMER_EXPIRE_ENTRY);
		NAME_IS("pm_qos_update_target", EV_PM_QOS_UPDATE);
		NAME_IS("idlelab_sleep_length", EV_PROBE_SLEEP);
		break;
	case 21:
		NAME_IS("pm_qos_update_request", EV_PM_QOS_REQUEST);
		NAME_IS("pm_qos_remove_request", EV_PM_QOS_REQUEST);
		break;
	case 22:
		NAME_IS("dev_pm_qos_add_request", EV_DEV_QOS_REQUEST);
		break;
	case 25:
		NAME_IS("call_function_single_exit", EV_VEC_EXIT);
		NAME_IS("dev_pm_qos_update_request", EV_DEV_QOS_REQUEST);
		NAME_IS("dev_pm_qos_remove_request", EV_DEV_QOS_REQUEST);
		break;
	case 26:
		NAME_IS("call_function_single_entry", EV_VEC_IPI_ENTRY);
		break;
	}
	return EV_NONE;
}
#undef NAME_IS

/* "SUBSYSTEM:NAME", as perf script prints an event (the subsystem must
 * be the event's own), for a name text_event_by_name() does not know. */
uint16_t text_event_with_system(const char *name, size_t len);

/* The event called @name (@len bytes), or EV_NONE. */
static inline uint16_t text_event_type(const char *name, size_t len)
{
	uint16_t type = text_event_by_name(name, len);

	return type != EV_NONE ? type : text_event_with_system(name, len);
}

/* For each byte, the columns of the irq-info flags where it may stand:
 * bit i for column i (text_flags_column()). */
static const uint8_t text_flag_cols[256] = {
	['d'] = 1, ['D'] = 1, ['X'] = 1,
	['b'] = 1 | 2, ['.'] = 1 | 2 | 4,
	['N'] = 2, ['n'] = 2, ['B'] = 2, ['L'] = 2, ['l'] = 2, ['p'] = 2,
	['H'] = 4, ['h'] = 4, ['s'] = 4, ['Z'] = 4, ['z'] = 4,
};

/*
 * The context flags (EV_CTX_*) of ftrace's irq-info column, 0 if @t (@n
 * bytes, no NUL) is none: irqs-off, need-resched, hardirq/softirq,
 * preempt depth[, migrate-disable].  Any need-resched letter but 'p'
 * (preempt count only) means TIF_NEED_RESCHED; 'h' and 'H' a hard irq,
 * 's' and 'H' softirq processing.
 */
static inline uint8_t text_flags_column(const char *t, size_t n)
{
	uint8_t ctx = EV_CTX_KNOWN;

	if (n < 4 || n > 6 || !(text_flag_cols[(unsigned char)t[0]] & 1) ||
	    !(text_flag_cols[(unsigned char)t[1]] & 2) ||
	    !(text_flag_cols[(unsigned char)t[2]] & 4))
		return 0;
	if (t[1] != '.' && t[1] != 'p')
		ctx |= EV_CTX_RESCHED;
	if (t[2] == 'h' || t[2] == 'H')
		ctx |= EV_CTX_HARDIRQ;
	if (t[2] == 's' || t[2] == 'H')
		ctx |= EV_CTX_SOFTIRQ;
	return ctx;
}

static inline bool text_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The task column that ends before @bracket, the "[CPU]" of @line:
 * "COMM-PID" (ftrace, trace-cmd; "(TGID)" after it with record-tgid) or
 * "COMM PID" or "PID/TID" (perf script).  Sets @e->pid and
 * EV_CTX_TASK_KNOWN, with EV_CTX_IDLE_TASK for pid 0; nothing when no
 * such number stands there ("ksoftirqd/0 [000]", "perf 12/-1 [000]").
 */
static inline void text_task_column(const char *line, const char *bracket,
				    struct raw_event *e)
{
	const char *p = bracket;
	uint32_t pid = 0, scale = 1;
	int digits = 0;

	while (p > line && text_blank(p[-1]))
		p--;
	if (p > line && p[-1] == ')') {
		while (p > line && p[-1] != '(')
			p--;
		for (p -= p > line; p > line && text_blank(p[-1]); p--)
			;
	}
	/* the digits, read backwards */
	for (; p > line && (unsigned char)(p[-1] - '0') < 10 && digits < 9;
	     p--, digits++, scale *= 10)
		pid += (uint32_t)(p[-1] - '0') * scale;
	if (!digits)
		return;
	if (p > line && !text_blank(p[-1])) {
		/* COMM-PID, or perf's PID/TID */
		if (p - 1 == line || (p[-1] != '-' && p[-1] != '/'))
			return;
		if (p[-1] == '-' ? text_blank(p[-2]) || p[-2] == '/' :
		    (unsigned char)(p[-2] - '0') >= 10)
			return;
	}
	e->pid = (int32_t)pid;
	e->ctx |= EV_CTX_TASK_KNOWN | (pid ? 0 : EV_CTX_IDLE_TASK);
}

/* The fields of @l into @e (ts, cpu, type and ctx set), then @sink. */
int text_decode(const struct line_ctx *l, struct raw_event *e,
		import_sink sink, void *ctx);

/* What the fast path reads lines for; one per thread. */
struct text_fast {
	const char	*path;
	const char	*want;		/* the buffer (import_text_line()) */
	import_sink	sink;
	void		*ctx;
	/* bit t: events of type t get their fields read; the others reach
	 * the sink with type, CPU, time and context only (0: all read) */
	uint32_t	fields_of;
	/* the last timer function read, its hash and tick test */
	char		fn[128];
	size_t		fn_len;
	uint32_t	fn_hash;
	bool		fn_tick;
};

/* text_fast_line(): this line is not for the fast path. */
#define TEXT_SLOW	1

/*
 * One plain line (@len bytes, NUL-terminated, no CR, no ": CPU:") read
 * as import_text_line() would for a line of the top-level buffer: events
 * to @f->sink, 0 (also for a line without events) or -1 with @err set.
 * TEXT_SLOW, with the line unchanged, when it has another layout than
 * the fast path takes: give it to import_text_line().
 */
int text_fast_line(struct text_fast *f, unsigned long lineno, char *line,
		   size_t len, struct idl_err *err);

/*
 * Longest text line accepted.  Real event lines are a few hundred bytes
 * (an ipi_send_cpumask of 1024 CPUs is ~300); the cap keeps memory
 * bounded whatever the input holds.
 */
#define IMPORT_LINE_MAX	65536

#define TEXT_CHUNK	(256U << 10)	/* bytes of the file per chunk */
#define TEXT_SLOTS	4		/* chunks in memory at a time */

/* What reading a line gives instead of its length. */
#define TEXT_END	(-1)	/* no more lines in the chunk */
#define TEXT_TOO_LONG	(-2)	/* a line longer than IMPORT_LINE_MAX */
#define TEXT_NUL	(-4)	/* a NUL byte in the line */
#define TEXT_READ_ERROR	(-3)	/* errno tells */

/*
 * Parse one line: @len bytes at @line, NUL-terminated in place of its
 * '\n' and cut at its first CR; @plain when it holds no NUL and no
 * ": CPU:" of a lost-events line (the fast path takes plain lines).
 */
typedef int (*text_line_fn)(void *ctx, unsigned long lineno, char *line,
			    size_t len, bool plain, struct idl_err *err);

struct text_par;

/* A chunk of the file's lines and what its parser made of them. */
struct text_chunk {
	struct text_par	*par;
	uint64_t	k;		/* its number in the file */
	void		*out;		/* the parser's (struct text_ops) */
	char		*buf;		/* the bytes read, lines in place */
	size_t		cap;		/* of buf, less a NUL */
	uint64_t	off;		/* file offset of buf[0] */
	size_t		len;		/* bytes in buf */
	size_t		first, pos;	/* the first and the next line */
	size_t		stop;		/* lines start before it */
	bool		eof;		/* buf reaches the end of the file */
	/* the line last read */
	bool		plain;
	uint64_t	line_off, line_end;	/* its file offsets */
	/* where the next CR, NUL and ": CPU:" are (len: none) */
	size_t		cr, nul, lost;
	bool		fresh;		/* ... to be looked for again */
	unsigned long	lines;		/* read */
	unsigned long	base;		/* lines of the file before it */
	int		status;		/* TEXT_CHUNK_* */
	/* the line of the error (0: a read error, not a line's) and a bad
	 * last line skipped (0: none), numbered within the chunk */
	unsigned long	bad_line, skipped;
	uint64_t	bad_off, skipped_off;	/* their file offsets */
	struct idl_err	err;		/* the error, as the parser saw it */
};

#define TEXT_CHUNK_OK		0
#define TEXT_CHUNK_ERROR	1	/* stopped at an error */
#define TEXT_CHUNK_FULL		2	/* stopped: the output is full */

/* How the lines of a file are parsed and their results taken. */
struct text_ops {
	size_t		out_size;	/* a chunk's output */
	/* once for each chunk's output (NULL: zeros will do) */
	void		(*init)(void *ctx, void *out);
	/* an output made ready for a chunk */
	void		(*reset)(void *out);
	/* a line into the chunk's output (ctx), on any thread */
	text_line_fn	line;
	/* the output cannot take another line (NULL: never) */
	bool		(*full)(void *out);
	/* a parsed chunk, in file order, on the caller's thread; c->base
	 * is set.  -1 with @err set ends text_par_run(). */
	int		(*take)(void *ctx, struct text_chunk *c,
				struct idl_err *err);
};

/* Every line of @path parsed and taken; 0 or -1 with @err set. */
int text_par_run(const char *path, const struct text_ops *ops, void *ctx,
		 struct idl_err *err);
/*
 * The lines of @c from the next one to @fn, numbered from c->base + 1,
 * until the end of the chunk, an error (-1), or @full(@ctx).  A bad last
 * line of the file (a capture cut short) is skipped: c->skipped.
 */
int text_chunk_lines(struct text_chunk *c, text_line_fn fn, void *ctx,
		     bool (*full)(void *ctx), struct idl_err *err);
/* Nothing follows the last line read of @c in the file. */
bool text_chunk_at_end(const struct text_chunk *c);
/* The bad line of @c (or the bad last line it skipped) given to @fn
 * again, with its number in the file: its message in @err, as one read
 * of the whole file gives it.  Returns -1. */
int text_chunk_again(struct text_chunk *c, bool skipped, text_line_fn fn,
		     void *ctx, struct idl_err *err);
/* All of @c's lines read again and given to @fn, numbered in the file. */
int text_chunk_redo(struct text_chunk *c, text_line_fn fn, void *ctx,
		    struct idl_err *err);

/* Files from this size on are read with two threads on two CPUs. */
#define TEXT_THREADED_MIN	(1U << 20)
#define TEXT_THREAD_STACK	(512U << 10)

/* Threads to import @path with: 1 or 2 (IDLELAB_IMPORT_THREADS=1 or 2
 * decides; by default 2 on two CPUs or more for a large file). */
int text_threads(const char *path);
/* pthread_create() with a small stack; -1 if no thread can be had. */
int text_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif /* IDLELAB_TEXT_IMPORT_H */
