/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binary trace records -> normalized events (decode-bin.c). */
#ifndef IDLELAB_DECODE_BIN_H
#define IDLELAB_DECODE_BIN_H

#include <stdbool.h>

#include "import.h"

struct tep_handle;
struct tep_record;
struct tep_format_field;

#define BIN_MAX_FMTS	16

struct bin_fmt {
	int		id;
	uint16_t	type;
	struct tep_format_field *f[4];
	struct tep_format_field *bucket, *now;	/* timer_start, optional */
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

#endif /* IDLELAB_DECODE_BIN_H */
