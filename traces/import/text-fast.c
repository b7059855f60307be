// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fast path of the text importers: lines in the layout tracefs
 * writes,
 *
 *           <idle>-0       [000] d..1.  2480.997114: cpu_idle: state=1 cpu_id=0
 *
 * are split by hand (the CPU after the first '[', the flags, the
 * timestamp, then the event name), lines of events the model does not use
 * are dropped before any field is read, and the fields of the frequent
 * events are read by a decoder per event type that expects the kernel's
 * own field order.  Whatever departs from that layout goes to the general
 * parser (text-parse.c), so a line gives the same events whichever path
 * reads it; the fast path reports no error of its own.
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "model.h"
#include "text-import.h"

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* What may follow a number the general parser reads (get_num()). */
static inline bool value_end(char c)
{
	return !c || c == ' ' || c == '\t' || c == ']' || c == ',';
}

/*
 * The @n bytes of @k at *@s: moved past.  All @n bytes are compared,
 * even past a NUL (a NUL in *@s differs from @k's bytes anyway): the
 * buffers have TEXT_SLACK bytes after their data (word_at()), and a
 * constant @n makes it a few word compares.
 */
static inline bool key_at(const char **s, const char *k, size_t n)
{
	if (memcmp(*s, k, n))
		return false;
	*s += n;
	return true;
}

/* @k a literal */
#define KEY(s, k)	key_at(s, k, sizeof(k) - 1)

/*
 * Eight bytes at @p as a little-endian word.  Reading past a line's end
 * is safe: the chunk buffers have TEXT_SLACK zero bytes after their data
 * (text-chunk.c), and the word is used only up to the first byte that
 * ends what is read (a NUL at the latest).
 */
static inline uint64_t word_at(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

#define BYTES(b)	(0x0101010101010101ULL * (uint8_t)(b))
#define HIGH_BITS	BYTES(0x80)

/*
 * The high bit of each byte of @w that is zero.  A borrow runs only
 * from a byte that is zero to the ones after it, so the first marked
 * byte is exact; later marks may be wrong, and are never used.
 */
static inline uint64_t zero_bytes(uint64_t w)
{
	return (w - BYTES(1)) & ~w & HIGH_BITS;
}

/* Bytes of @w up to its first marked one (@m from zero_bytes()), 0-8. */
static inline unsigned int before_mark(uint64_t m)
{
	return m ? (unsigned int)__builtin_ctzll(m) / 8 : 8;
}

static const uint64_t ten_pow[9] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000
};

/*
 * The decimal digits that start the word at @p: their count (0-8), and
 * their value in *@v.  Subtracting '0' from each byte leaves 0-9 in a
 * digit; any other byte has its high bit set then, or after adding
 * 0x76.  Borrows and carries run from a byte to the later ones only, so
 * they cannot hide the first byte that is not a digit.
 */
static inline unsigned int digit_word(const char *p, uint64_t *v)
{
	uint64_t t = word_at(p) - BYTES('0');
	unsigned int k = before_mark((t | (t + BYTES(0x76))) & HIGH_BITS);

	if (!k) {
		*v = 0;
		return 0;
	}
	/* the k digits to the top, the first one the most significant:
	 * then pairs, fours and eights of digits are combined in place */
	t <<= 8 * (8 - k);
	t = (t * 10 + (t >> 8)) & 0x00FF00FF00FF00FFULL;
	t = (t * 100 + (t >> 16)) & 0x0000FFFF0000FFFFULL;
	*v = (t * 10000 + (t >> 32)) & 0xFFFFFFFFULL;
	return k;
}

/* 1 to @max decimal digits at *@s (no sign, no blank) into @v. */
static inline bool digits(const char **s, size_t max, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0, w;
	unsigned int k;

	do {
		k = digit_word(p, &w);
		x = x * ten_pow[k] + w;
		p += k;
	} while (k == 8);
	if (p == *s || (size_t)(p - *s) > max)
		return false;
	*v = x;
	*s = p;
	return true;
}

/* Hex digit values plus one (0: not a hex digit). */
static const uint8_t hex_value[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6,
	['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* A pointer, [0x]1 to 16 hex digits, ending a value. */
static bool hex(const char **s, uint64_t *v)
{
	const char *p = *s, *start;
	uint64_t x = 0;
	unsigned int d;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	for (start = p; (d = hex_value[(unsigned char)*p]); p++)
		x = x << 4 | (d - 1);
	if (p == start || p - start > 16 || !value_end(*p))
		return false;
	*v = x;
	*s = p;
	return true;
}

/* The bytes that end a function's name in function(). */
static const bool fn_stop[256] = {
	[0] = true, [' '] = true, ['+'] = true, ['/'] = true, ['\t'] = true,
	['['] = true,
};

/*
 * "function=NAME" at *@s, NAME ending at a blank: its hash and tick test
 * as get_function() takes them (names of 128 bytes or more, which it
 * truncates, and names with a '[', which could hide a "[timeout=", are
 * left to it).  A timer's function is mostly the last one read again.
 */
static bool function(struct text_fast *f, const char **s, struct raw_event *e)
{
	const char *p = *s, *name;
	size_t n;

	if (!KEY(&p, "function="))
		return false;
	for (name = p; !fn_stop[(unsigned char)*p]; p++)
		;
	n = (size_t)(p - name);
	if (!n || n > 127 || *p != ' ')
		return false;
	if (n != f->fn_len || memcmp(name, f->fn, n)) {
		memcpy(f->fn, name, n);
		f->fn_len = n;
		f->fn_hash = ev_name_hash_n(name, n);
		f->fn_tick = ev_is_tick_function_n(name, n);
	}
	e->timer.fn = f->fn_hash;
	e->timer.is_tick = f->fn_tick;
	*s = p;
	return true;
}

static bool fast_idle(const char *s, struct raw_event *e)
{
	uint64_t st, cpu;

	if (!KEY(&s, "state=") || !digits(&s, 10, &st) ||
	    !KEY(&s, " cpu_id=") || !digits(&s, 10, &cpu) || !value_end(*s))
		return false;
	if (st == 4294967295ULL)
		st = EV_IDLE_EXIT;
	else if (st > 1000)
		return false;
	if (cpu >= TRACE_MAX_CPUS)
		return false;
	e->idle.state = (uint32_t)st;
	e->idle.cpu_id = (uint32_t)cpu;
	return true;
}

/* ... [timeout=%ld] bucket_expiry=%lu cpu=%u idx=%u flags=%s */
static bool fast_wheel_start(const char *s, struct raw_event *e)
{
	uint64_t timeout, cpu, idx;

	if (!KEY(&s, " [timeout=") || !digits(&s, 18, &timeout) ||
	    !KEY(&s, "] bucket_expiry=") ||
	    !digits(&s, 18, &e->timer.bucket_expiry) ||
	    !KEY(&s, " cpu=") || !digits(&s, 9, &cpu) ||
	    !KEY(&s, " idx=") || !digits(&s, 9, &idx) ||
	    !KEY(&s, " flags=") || cpu > EV_TIMER_CPUMASK)
		return false;
	if (idx >= EV_TIMER_IDX_MAX)
		return false;
	e->timer.flags = (uint32_t)cpu | (uint32_t)idx << EV_TIMER_ARRAYSHIFT;
	e->timer.has_idx = true;
	for (; *s && *s != ' '; s++)
		if (*s == 'D')
			e->timer.flags |= EV_TIMER_DEFERRABLE;
		else if (*s == 'P')
			e->timer.flags |= EV_TIMER_PINNED;
	/* jiffies wrap: modular arithmetic, as the kernel's */
	e->timer.now = (uint64_t)e->timer.expires - timeout;
	e->timer.has_now = true;
	e->timer.has_bucket = true;
	return true;
}

/*
 * hrtimer=%p or timer=%p, then function=%ps and expires= (start) or now=
 * (expire_entry); a timer_start goes on with the timer wheel's fields.
 */
static bool fast_timer(struct text_fast *f, const char *s,
		       struct raw_event *e)
{
	bool wheel = e->type == EV_TIMER_START || e->type == EV_TIMER_CANCEL ||
		     e->type == EV_TIMER_EXPIRE_ENTRY;
	uint64_t v;

	if (!(wheel ? KEY(&s, "timer=") : KEY(&s, "hrtimer=")) ||
	    !hex(&s, &e->timer.timer))
		return false;
	if (e->type == EV_HRTIMER_CANCEL || e->type == EV_TIMER_CANCEL)
		return true;
	if (!KEY(&s, " ") || !function(f, &s, e))
		return false;
	if (e->type == EV_HRTIMER_START || e->type == EV_TIMER_START) {
		if (!KEY(&s, " expires=") || !digits(&s, 18, &v))
			return false;
		e->timer.expires = (int64_t)v;
		return wheel ? fast_wheel_start(s, e) : value_end(*s);
	}
	if (!KEY(&s, " now=") || !digits(&s, 18, &e->timer.now) ||
	    !value_end(*s))
		return false;
	e->timer.has_now = true;
	return true;
}

/* A small number (irq=, vec=, success=, cpu=) first in the fields. */
static bool leading_num(const char *s, const char *key, size_t klen,
			uint64_t *v)
{
	return key_at(&s, key, klen) && digits(&s, 9, v) && value_end(*s);
}

/* "target_cpu=" as parse_wakeup() finds it: its first occurrence. */
static bool fast_wakeup(const char *s, struct raw_event *e)
{
	uint64_t v;

	while ((s = strchr(s, 't')) && !KEY(&s, "target_cpu="))
		s++;
	if (!s || !digits(&s, 9, &v) || v >= TRACE_MAX_CPUS)
		return false;
	e->wakeup.target_cpu = (int32_t)v;
	return true;
}

/* An interrupt's number, the one field of "KEY=N" (irq, softirq, x86
 * vector events). */
static bool fast_irq(const char *s, struct raw_event *e, const char *key,
		     size_t n)
{
	uint64_t v;

	if (!leading_num(s, key, n, &v))
		return false;
	e->irq.irq = (int32_t)v;
	return true;
}

/* A probe's "(WHERE) KEY=VALUE", VALUE decimal and maybe negative (a
 * value too long for digits() goes to the general decoder). */
static bool fast_probe(const char *s, struct raw_event *e)
{
	const char *key = e->type == EV_PROBE_GOT_TICK ? "tick=" : "ns=";
	bool neg;
	uint64_t v;

	s = strstr(s, ") ");
	if (!s)
		return false;
	s += 2;
	if (!key_at(&s, key, strlen(key)))
		return false;
	neg = *s == '-';
	s += neg;
	if (!digits(&s, 18, &v) || !value_end(*s))
		return false;
	e->probe.value = neg ? -(int64_t)v : (int64_t)v;
	if (e->type == EV_PROBE_GOT_TICK)
		e->probe.value = v != 0;
	return true;
}

/* The fields of @e's type into @e, or false: the general decoder's. */
static bool fast_decode(struct text_fast *f, const char *s,
			struct raw_event *e)
{
	uint64_t v;

	switch (e->type) {
	case EV_CPU_IDLE:
		return fast_idle(s, e);
	case EV_HRTIMER_START:
	case EV_HRTIMER_CANCEL:
	case EV_HRTIMER_EXPIRE_ENTRY:
	case EV_TIMER_START:
	case EV_TIMER_CANCEL:
	case EV_TIMER_EXPIRE_ENTRY:
		return fast_timer(f, s, e);
	case EV_SCHED_WAKEUP:
		return fast_wakeup(s, e);
	case EV_IPI_SEND_CPU:
		if (!leading_num(s, "cpu=", 4, &v) || v >= TRACE_MAX_CPUS)
			return false;
		e->ipi.target = (uint32_t)v;
		return true;
	case EV_TICK_STOP:
		if (!leading_num(s, "success=", 8, &v))
			return false;
		e->tick_stop.success = (int32_t)v;
		return true;
	case EV_IRQ_HANDLER_ENTRY:
	case EV_IRQ_HANDLER_EXIT:
		return fast_irq(s, e, "irq=", 4);
	case EV_SOFTIRQ_ENTRY:
	case EV_SOFTIRQ_EXIT:
		return fast_irq(s, e, "vec=", 4);
	case EV_VEC_ENTRY:
	case EV_VEC_IPI_ENTRY:
	case EV_VEC_EXIT:
		return fast_irq(s, e, "vector=", 7);
	case EV_PROBE_SLEEP:
	case EV_PROBE_RESIDENCY:
	case EV_PROBE_GOT_TICK:
		return fast_probe(s, e);
	default:
		return false;
	}
}

/* The end of the token at @s (a blank or the end of the string). */
static inline const char *token_end(const char *s)
{
	uint64_t w;
	unsigned int k;

	do {
		w = word_at(s);
		k = before_mark(zero_bytes(w) | zero_bytes(w ^ BYTES(' ')) |
				zero_bytes(w ^ BYTES('\t')));
		s += k;
	} while (k == 8);
	return s;
}

/* 10^(9 - digits): nanoseconds of a fraction of 1 to 9 digits. */
static const uint64_t frac_scale[10] = {
	0, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1
};

/* "SECONDS.FRACTION:" with up to 9 digits each, then a blank. */
static bool timestamp(const char **s, uint64_t *ns)
{
	const char *p = *s, *frac;
	uint64_t sec, f;

	if (!digits(&p, 9, &sec) || *p++ != '.')
		return false;
	frac = p;
	if (!digits(&p, 9, &f) || p[0] != ':' || !text_blank(p[1]))
		return false;
	*ns = sec * 1000000000ULL + f * frac_scale[p - frac];
	*s = p + 1;
	return true;
}

/* A line's event name and fields. */
struct split {
	char		*name;
	size_t		name_len;
	char		*fields;
	const char	*bracket;	/* the "[CPU]" */
};

/*
 * "[CPU] [FLAGS] SECONDS.FRACTION: NAME: " at the line's first '['.
 * False leaves the line to the general parser: it tries later '[', and
 * tells what is wrong with a cpu_idle line it cannot read either.
 */
static bool split(char *line, size_t len, struct raw_event *e,
		  struct split *sp)
{
	const char *bracket = memchr(line, '[', len), *p = bracket, *end;
	uint64_t cpu;

	if (!p)
		return false;
	p++;
	if (!digits(&p, 9, &cpu) || p[0] != ']' || !text_blank(p[1]) ||
	    cpu >= TRACE_MAX_CPUS)
		return false;
	for (p += 2; text_blank(*p); p++)
		;
	if (!is_digit(*p)) {		/* the irq-info flags, "dNh1." */
		end = token_end(p);
		e->ctx = text_flags_column(p, (size_t)(end - p));
		for (p = end; text_blank(*p); p++)
			;
	}
	sp->bracket = bracket;
	if (!timestamp(&p, &e->ts))
		return false;
	while (text_blank(*p))
		p++;
	end = token_end(p);
	if (end - p < 2 || end[-1] != ':')
		return false;
	sp->name = line + (p - line);
	sp->name_len = (size_t)(end - p - 1);
	sp->fields = line + (end - line) + (*end ? 1 : 0);
	e->cpu = (uint32_t)cpu;
	return true;
}

int text_fast_line(struct text_fast *f, unsigned long lineno, char *line,
		   size_t len, struct idl_err *err)
{
	struct raw_event e;
	struct split sp;
	struct line_ctx l;

	/* an instance prefix "NAME: ", a lost-events line "CPU:N [...]" */
	if (!text_blank(line[0]) && line[0] != '#')
		return TEXT_SLOW;
	if (line[0] == '#')
		return 0;
	memset(&e, 0, sizeof(e));
	if (!split(line, len, &e, &sp))
		return TEXT_SLOW;
	e.type = text_event_type(sp.name, sp.name_len);
	/* an event of no use, or the top-level buffer is not wanted */
	if (e.type == EV_NONE || (f->want && *f->want))
		return 0;
	if (f->fields_of && !(f->fields_of & 1U << e.type))
		return f->sink(f->ctx, &e, err);
	if (EV_TASK_TYPES & 1U << e.type)
		text_task_column(line, sp.bracket, &e);
	if (fast_decode(f, sp.fields, &e))
		return f->sink(f->ctx, &e, err);
	/* the general decoder on the same split, from clean fields */
	memset(&e.timer, 0, sizeof(e) - offsetof(struct raw_event, timer));
	sp.name[sp.name_len] = 0;
	l = (struct line_ctx){ f->path, lineno, sp.name, sp.fields, err };
	return text_decode(&l, &e, f->sink, f->ctx);
}
