/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binary trace records -> normalized events (decode-bin.c). */
#ifndef IDLELAB_DECODE_BIN_H
#define IDLELAB_DECODE_BIN_H

#include <stdbool.h>

#include "import.h"

struct tep_handle;
struct tep_record;
struct tep_format_field;

#define BIN_MAX_FMTS	48

struct bin_fmt {
	int		id;
	uint16_t	type;
	struct tep_format_field *f[4];
	struct tep_format_field *bucket, *now;	/* timer_start, optional */
	struct tep_format_field *qos_class;	/* pm_qos_*_request < 5.7 */
};

struct bin_decoder {
	struct tep_handle *tep;
	int		n;
	bool		no_symbols;	/* a timer function had no name */
	struct bin_fmt	fmt[BIN_MAX_FMTS];
};

/* Returns the number of known event formats found in @tep. */
int bin_decoder_init(struct bin_decoder *d, struct tep_handle *tep);
int bin_decode(struct bin_decoder *d, const struct tep_record *r,
	       import_sink sink, void *ctx, struct idl_err *err);

/*
 * timer_start's flags as the kernel renders them ("M|D|P|I", or nothing),
 * for raw text: Debian 12's libtraceevent (1.7.1) prints an empty flag
 * set as "D|P|I", which would make every wheel timer look deferrable.
 * Returns false if @r is not a timer_start event.
 */
bool bin_timer_flags_text(const struct bin_decoder *d,
			  const struct tep_record *r, char *buf, size_t len);
/*
 * ipi_send_cpumask's mask as the kernel's text has it (%*pb: hex, 32-bit
 * words most significant first, zero-padded, commas between), for raw
 * text: libtraceevent prints a CPU list ("1-2"), which import cannot
 * tell from hex.  Returns false if @r is not that event or @len is too
 * small.
 */
bool bin_cpumask_text(const struct bin_decoder *d,
		      const struct tep_record *r, char *buf, size_t len);

#endif /* IDLELAB_DECODE_BIN_H */
