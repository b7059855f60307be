/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live recording of idle periods with libtracefs, in a private tracefs
 * instance "idlelab-record-PID-RANDOM" that is removed on every exit path
 * (normal end, error, SIGINT/SIGTERM).  Needs root and a cpuidle driver.
 */
#ifndef IDLELAB_RECORD_H
#define IDLELAB_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "error.h"

struct record_result {
	int		command_status;	/* wait status of COMMAND, -1 none */
};

struct record_opts {
	const char	*output;	/* idlelab trace to write */
	double		duration;	/* seconds; 0: until COMMAND ends or a
					 * signal */
	const char	*cpus;		/* CPU list "0-3,6", NULL: all */
	const char	*raw;		/* also write the events as text */
	char *const	*command;	/* NULL or argv run while recording */
	bool		quiet;		/* no summary on stderr */
	bool		probe_inputs;	/* kprobes: the kernel's own inputs */
	struct record_result *result;	/* optional */
};

/* Returns 0, or -1 with @err set (status 1: environment, 2: usage). */
int trace_record(const struct record_opts *o, struct idl_err *err);

/*
 * Remove the tracefs instances of recorders that are gone (killed with
 * SIGKILL), saying so on stderr, and the --probe-inputs probes no
 * instance uses; record's start and live's start and --restore call it.
 * Nothing happens without tracefs or root.
 */
void trace_record_remove_stale(void);
/*
 * Ask a recording to stop (async-signal-safe): the one running, or the
 * next trace_record() call of this process, which then records nothing
 * and cleans up at once.  For a signal handler installed before the
 * call (a recorder whose parent may die while it starts).
 */
void trace_record_stop(void);

#endif /* IDLELAB_RECORD_H */
