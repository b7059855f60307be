/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers from text the user typed: every numeric option, governor
 * tunable, benchmark parameter and pattern term goes through these.
 */
#ifndef IDLELAB_NUMBER_H
#define IDLELAB_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- value parsers: 0, or -1 if @s is not a valid value ---- */

/* A decimal integer in [@min, @max]. */
int idl_parse_int(const char *s, long long min, long long max, long long *v);
/* A decimal integer without sign in [@min, @max]. */
int idl_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v);
/* A finite number in [@min, @max]; with @above_min, in (@min, @max]. */
int idl_parse_double(const char *s, double min, double max, bool above_min,
		     double *v);
/* A time with its unit, ns, us, ms or s ("1.5ms"), in ns (rounded). */
int idl_parse_time(const char *s, uint64_t *ns);
/* A CPU number in 0..@max. */
int idl_parse_cpu(const char *s, int max, int *cpu);
/*
 * A CPU list like "0-3,6" of CPUs in 0..@max: numbers and ascending
 * ranges separated by commas.  Sets the CPUs in @mask (@nwords 64-bit
 * words, cleared first) if @mask is not NULL.
 */
int idl_parse_cpulist(const char *s, int max, uint64_t *mask, size_t nwords);

/* CPU numbers the options accept (the kernel's NR_CPUS is at most 8192). */
#define IDL_CPU_MAX		65535

#endif /* IDLELAB_NUMBER_H */
