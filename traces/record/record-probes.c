// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record --probe-inputs: kprobe events that carry the kernel's own
 * governor inputs (doc/importing.md, "Probed inputs"), in a group of
 * their own so that nothing a user defined is ever touched.  Kprobe
 * definitions are global to tracefs: recorders running at once share
 * them, each enables them in its own instance, and the definitions are
 * removed when no instance uses them any more (the kernel refuses to
 * remove an enabled probe).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <tracefs.h>

#include "btf.h"
#include "record-probes.h"

#define KERNEL_BTF	"/sys/kernel/btf/vmlinux"

static const struct {
	const char	*event, *where, *fetch;
	bool		ret;		/* a return probe */
	bool		needed;		/* without it --probe-inputs fails */
	/* where @fetch names a field of the first argument, its struct
	 * and member, for the fetch by offset where kprobe events cannot
	 * read BTF (an s64 "ns", the one such probe) */
	const char	*strct, *member;
} probe_defs[] = {
	{ "idlelab_sleep_length", "tick_nohz_get_sleep_length",
	  "ns=$retval:s64", true, true, NULL, NULL },
	{ "idlelab_got_tick", "tick_nohz_idle_got_tick", "tick=$retval:u8",
	  true, false, NULL, NULL },
	/* a field of the argument: by name where kprobe events read BTF
	 * (CONFIG_PROBE_EVENTS_BTF_ARGS, 6.6 on), else at the offset the
	 * kernel's own BTF gives */
	{ "idlelab_residency", "cpuidle_reflect",
	  "ns=dev->last_residency_ns:s64", false, false,
	  "cpuidle_device", "last_residency_ns" },
};

#define NR_PROBES	(sizeof(probe_defs) / sizeof(probe_defs[0]))

static enum tracefs_dynevent_type probe_type(size_t i)
{
	return probe_defs[i].ret ? TRACEFS_DYNEVENT_KRETPROBE :
				   TRACEFS_DYNEVENT_KPROBE;
}

static int create_probe(size_t i, const char *fetch)
{
	struct tracefs_dynevent *d;
	int ret;

	d = probe_defs[i].ret ?
		tracefs_kretprobe_alloc(REC_PROBE_GROUP, probe_defs[i].event,
					probe_defs[i].where, fetch, 0) :
		tracefs_kprobe_alloc(REC_PROBE_GROUP, probe_defs[i].event,
				     probe_defs[i].where, fetch);
	if (!d)
		return -1;
	ret = tracefs_dynevent_create(d);
	tracefs_dynevent_free(d);
	if (ret && errno == EEXIST)	/* another recorder, just now */
		ret = 0;
	return ret ? -1 : 0;
}

/* Define probe @i unless a recorder running already did; 0 or -1. */
static int define_probe(size_t i)
{
	struct tracefs_dynevent *d;
	char fetch[128];
	struct idl_err btf_err;
	long off;
	int saved;

	d = tracefs_dynevent_get(probe_type(i), REC_PROBE_GROUP,
				 probe_defs[i].event);
	if (d) {
		tracefs_dynevent_free(d);
		return 0;
	}
	if (create_probe(i, probe_defs[i].fetch) == 0)
		return 0;
	if (!probe_defs[i].strct)
		return -1;
	/* the kprobe's own refusal is what the caller reports */
	saved = errno;
	off = btf_file_member_offset(KERNEL_BTF, probe_defs[i].strct,
				     probe_defs[i].member, &btf_err);
	if (off < 0) {
		errno = saved;
		return -1;
	}
	snprintf(fetch, sizeof(fetch), "ns=+%ld($arg1):s64", off);
	return create_probe(i, fetch);
}

int rec_probes_setup(struct tracefs_instance *inst, bool quiet,
		     struct idl_err *err)
{
	size_t i;
	int n = 0;

	for (i = 0; i < NR_PROBES; i++) {
		errno = 0;
		if (define_probe(i) == 0 &&
		    tracefs_event_enable(inst, REC_PROBE_GROUP,
					 probe_defs[i].event) == 0) {
			n++;
			continue;
		}
		if (probe_defs[i].needed)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "--probe-inputs: no kprobe event "
					   "on %s (%s; a kernel with "
					   "CONFIG_KPROBE_EVENTS is needed)",
					   probe_defs[i].where,
					   errno ? strerror(errno) :
						   "refused");
		if (!quiet)
			fprintf(stderr, "idlelab record: --probe-inputs: no "
				"probe on %s (%s): its input is derived from "
				"the events\n", probe_defs[i].where,
				errno ? strerror(errno) : "refused");
	}
	return n;
}

void rec_probes_remove_unused(void)
{
	struct tracefs_dynevent **all;
	int i;

	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE |
				       TRACEFS_DYNEVENT_KRETPROBE,
				       REC_PROBE_GROUP);
	/* an enabled probe is refused (EBUSY): a recorder still uses it */
	for (i = 0; all && all[i]; i++)
		tracefs_dynevent_destroy(all[i], false);
	tracefs_dynevent_list_free(all);
}
