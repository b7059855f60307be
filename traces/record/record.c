// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * idlelab record: a private tracefs instance, the events of events.h,
 * consuming reads with tracefs_iterate_raw_events() every 100 ms into the
 * model, the periods into a trace file.  The instance is destroyed on
 * every path out of trace_record(); SIGINT/SIGTERM only set a flag.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include <idlelab/governor.h>

#include "atomic.h"
#include "cstate.h"
#include "decode-bin.h"
#include "host.h"
#include "model.h"
#include "number.h"
#include "record.h"
#include "record-probes.h"
#include "trace.h"

#define REC_WINDOW	(1 << 18)	/* reordering window, events */
#define REC_BUFFER_KB	8192		/* per-CPU ring buffer */

static const char *const rec_events[][2] = {
	{ "power", "cpu_idle" }, { "power", "cpu_idle_miss" },
	{ "timer", "hrtimer_start" }, { "timer", "hrtimer_cancel" },
	{ "timer", "hrtimer_expire_entry" }, { "timer", "timer_start" },
	{ "timer", "timer_cancel" }, { "timer", "timer_expire_entry" },
	{ "timer", "tick_stop" }, { "irq", "irq_handler_entry" },
	{ "irq", "irq_handler_exit" }, { "irq", "softirq_entry" },
	{ "irq", "softirq_exit" },
	{ "ipi", "ipi_send_cpu" }, { "ipi", "ipi_send_cpumask" },
	{ "sched", "sched_wakeup" }, { "sched", "sched_switch" },
	{ "power", "pm_qos_update_target" },
	{ "power", "pm_qos_add_request" }, { "power", "pm_qos_update_request" },
	{ "power", "pm_qos_remove_request" },
	{ "power", "dev_pm_qos_add_request" },
	{ "power", "dev_pm_qos_update_request" },
	{ "power", "dev_pm_qos_remove_request" },
	/* x86 only: its system vectors, the timer and the IPIs taken
	 * (enabled where they exist, silently) */
	{ "irq_vectors", "local_timer_entry" },
	{ "irq_vectors", "local_timer_exit" },
	{ "irq_vectors", "reschedule_entry" },
	{ "irq_vectors", "reschedule_exit" },
	{ "irq_vectors", "call_function_entry" },
	{ "irq_vectors", "call_function_exit" },
	{ "irq_vectors", "call_function_single_entry" },
	{ "irq_vectors", "call_function_single_exit" },
	{ "irq_vectors", "irq_work_entry" },
	{ "irq_vectors", "irq_work_exit" },
};
#define NR_REC_EVENTS	(sizeof(rec_events) / sizeof(rec_events[0]))

static volatile sig_atomic_t rec_signalled;

static void on_signal(int sig)
{
	rec_signalled = sig;
}

struct rec {
	const struct record_opts *o;
	struct tracefs_instance	*inst;
	struct tep_handle	*tep;
	struct bin_decoder	dec;
	struct trace_writer	*w;
	struct model		*m;
	struct ev_sorter	*sorter;
	FILE			*raw;
	char			raw_tmp[4096];
	struct trace_seq	seq;
	cpu_set_t		cpus;
	int			nr_cpus;
	int32_t			dev_qos_us[TRACE_MAX_CPUS];
	bool			all_cpus;
	pid_t			child;
	int			child_status;
	struct trace_counter	*ctr;		/* sysfs counters, start/end */
	size_t			nctr;
	struct idl_err		*err;
	int			failed;
	struct sigaction	old_int, old_term;
};

/* CONFIG_HZ from /boot/config-RELEASE or /proc/config.gz; 0 if absent. */
static uint32_t config_hz(const char *release)
{
	char path[300], line[256], cmd[] = "gzip -dc /proc/config.gz 2>/dev/null";
	unsigned int hz = 0;
	FILE *f;
	bool pipe = false;

	snprintf(path, sizeof(path), "/boot/config-%s", release);
	f = fopen(path, "r");
	if (!f && access("/proc/config.gz", R_OK) == 0) {
		f = popen(cmd, "r");
		pipe = true;
	}
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
			break;
	if (pipe)
		pclose(f);
	else
		fclose(f);
	return hz;
}

/* "0-3,6" (the common CPU-list parser) -> set; -1 when malformed. */
static int parse_cpulist(const char *s, cpu_set_t *set, int max)
{
	uint64_t mask[(CPU_SETSIZE + 63) / 64];
	int cpu;

	if (idl_parse_cpulist(s, max - 1, mask, sizeof(mask) / 8))
		return -1;
	CPU_ZERO(set);
	for (cpu = 0; cpu < max; cpu++)
		if (mask[cpu / 64] >> (cpu % 64) & 1)
			CPU_SET(cpu, set);
	return CPU_COUNT(set) ? 0 : -1;
}

/*
 * Whether @tep already names kernel text: libtracefs (1.6 at least)
 * reads /proc/kallsyms itself when it loads the event formats; reading
 * it again costs as long again and holds every name twice.  Probed with
 * the first text symbol of the file (an address of 0, as kptr_restrict
 * gives, proves nothing).
 */
static bool has_kernel_names(struct tep_handle *tep, FILE *f)
{
	char line[512], type;
	unsigned long long addr;

	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c", &addr, &type) == 2 &&
		    (type == 't' || type == 'T'))
			return addr && tep_find_function(tep, addr);
	return false;
}

static void load_kallsyms(struct tep_handle *tep)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	char line[512];

	if (!f)
		return;
	if (has_kernel_names(tep, f)) {
		fclose(f);
		return;
	}
	rewind(f);
	mem = open_memstream(&buf, &len);
	if (mem) {
		/* only text symbols: timer functions are code.  A stop
		 * asked for meanwhile ends the load: the recording ends
		 * at once and needs no names (a sanitizer build takes
		 * seconds over this file) */
		while (!rec_signalled && fgets(line, sizeof(line), f)) {
			char t = strlen(line) > 17 ? line[17] : 0;

			if (t == 't' || t == 'T')
				fputs(line, mem);
		}
		fclose(mem);
		if (buf && !rec_signalled)
			tep_parse_kallsyms(tep, buf);
	}
	free(buf);
	fclose(f);
}

/* ftrace's irq-info column from a record's common flags, "dNh1." */
static void flags_column(struct rec *r, struct tep_record *rec, char *col)
{
	int kf = tep_data_flags(r->tep, rec);
	int depth = tep_data_preempt_count(r->tep, rec);

	col[0] = kf & 0x01 ? 'd' : '.';
	col[1] = kf & EV_KFLAG_NEED_RESCHED ? 'N' : '.';
	col[2] = (kf & EV_KFLAG_HARDIRQ) && (kf & EV_KFLAG_SOFTIRQ) ? 'H' :
		 kf & EV_KFLAG_HARDIRQ ? 'h' :
		 kf & EV_KFLAG_SOFTIRQ ? 's' : '.';
	col[3] = depth > 0 && depth < 10 ? (char)('0' + depth) : '.';
	col[4] = '.';
	col[5] = '\0';
}

/* Put @value in place of @seq's text from @from to @to. */
static void splice_value(struct trace_seq *seq, char *from, char *to,
			 const char *value)
{
	char rest[512];

	snprintf(rest, sizeof(rest), "%s", to);
	snprintf(from, seq->buffer_size - (size_t)(from - seq->buffer), "%s%s",
		 value, rest);
}

static void write_raw(struct rec *r, struct tep_record *rec)
{
	char flags[32], col[8], mask[9 * 256 + 1], *f, *end;

	trace_seq_reset(&r->seq);
	tep_print_event(r->tep, &r->seq, rec, "%s: %s", TEP_PRINT_NAME,
			TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	/* timer_start ends with "flags=...": write it as the kernel does */
	if (bin_timer_flags_text(&r->dec, rec, flags, sizeof(flags)) &&
	    (f = strstr(r->seq.buffer, " flags=")))
		snprintf(f, r->seq.buffer_size - (size_t)(f - r->seq.buffer),
			 " flags=%s", flags);
	/* ipi_send_cpumask's mask too (a CPU list from libtraceevent) */
	if (bin_cpumask_text(&r->dec, rec, mask, sizeof(mask)) &&
	    (f = strstr(r->seq.buffer, "cpumask=")) &&
	    (end = strchr(f, ' ')))
		splice_value(&r->seq, f + strlen("cpumask="), end, mask);
	flags_column(r, rec, col);
	fprintf(r->raw, "          <...>-%-7d [%03d] %s %llu.%09llu: %s\n",
		tep_data_pid(r->tep, rec), rec->cpu, col,
		rec->ts / 1000000000ULL, rec->ts % 1000000000ULL,
		r->seq.buffer);
}

static int push(void *ctx, const struct raw_event *e, struct idl_err *err)
{
	struct rec *r = ctx;

	return ev_sorter_push(r->sorter, e, err);
}

static int rec_cb(struct tep_event *ev, struct tep_record *rec, int cpu,
		  void *ctx)
{
	struct rec *r = ctx;

	(void)ev;
	(void)cpu;
	if (r->failed)
		return 1;
	if (r->raw)
		write_raw(r, rec);
	if (bin_decode(&r->dec, rec, push, r, r->err)) {
		r->failed = 1;
		return 1;
	}
	return 0;
}

static int drain(struct rec *r)
{
	tracefs_iterate_raw_events(r->tep, r->inst,
				   r->all_cpus ? NULL : &r->cpus,
				   r->all_cpus ? 0 : (int)sizeof(r->cpus),
				   rec_cb, r);
	return r->failed ? -1 : 0;
}

static uint64_t overruns(struct rec *r)
{
	uint64_t total = 0;
	char file[64], *s, *p;
	int cpu;

	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		s = tracefs_instance_file_read(r->inst, file, NULL);
		if (!s)
			continue;
		p = strstr(s, "overrun:");
		if (p)
			total += strtoull(p + 8, NULL, 10);
		free(s);
	}
	return total;
}

static int emit(void *ctx, const struct idle_period *p, struct idl_err *err)
{
	struct rec *r = ctx;

	return trace_writer_add(r->w, p, err);
}

/* Instances of recorders that are gone (killed with SIGKILL: no cleanup). */
#define STALE_MAX	64
struct stale {
	char	name[STALE_MAX][64];
	int	n;
};

static int find_stale(const char *name, void *ctx)
{
	struct stale *st = ctx;
	unsigned int rnd;
	int pid, end = 0;

	if (sscanf(name, "idlelab-record-%d-%8x%n", &pid, &rnd, &end) != 2 ||
	    name[end] || strlen(name) >= sizeof(st->name[0]) || pid <= 0)
		return 0;
	/* EPERM means alive; a recorder of another PID namespace is not
	 * seen here and its instance would be taken for stale: only root
	 * of the host records, so that case is not supported */
	if (kill(pid, 0) == 0 || errno != ESRCH)
		return 0;
	strcpy(st->name[st->n++], name);
	return st->n == STALE_MAX;
}

void trace_record_remove_stale(void)
{
	struct stale st = { .n = 0 };
	int i;

	tracefs_instances_walk(find_stale, &st);
	for (i = 0; i < st.n; i++) {
		struct tracefs_instance *in = tracefs_instance_alloc(NULL,
								     st.name[i]);

		if (!in)
			continue;
		tracefs_trace_off(in);
		tracefs_event_disable(in, NULL, NULL);
		if (tracefs_instance_destroy(in))
			fprintf(stderr, "%s: tracefs instance %s of a "
				"killed recorder: cannot remove it: %s\n",
				idl_progname, st.name[i], strerror(errno));
		else
			fprintf(stderr, "%s: removed tracefs instance %s, "
				"left by a killed recorder\n", idl_progname,
				st.name[i]);
		tracefs_instance_free(in);
	}
	rec_probes_remove_unused();
}

static int make_instance(struct rec *r, struct idl_err *err)
{
	char name[96];
	unsigned int rnd = 0;

	/* libtracefs mounts tracefs itself when it can; be explicit */
	if (access("/sys/kernel/tracing/instances", F_OK) &&
	    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    errno != EBUSY && !tracefs_tracing_dir())
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot mount tracefs on /sys/kernel/"
				   "tracing: %s", strerror(errno));
	if (!tracefs_tracing_dir())
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "tracefs is not available (root needed; "
				   "mount -t tracefs nodev /sys/kernel/tracing)");
	trace_record_remove_stale();
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		rnd = (unsigned int)time(NULL);
	snprintf(name, sizeof(name), "idlelab-record-%d-%08x", (int)getpid(),
		 rnd);
	if (tracefs_instance_exists(name))
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "tracefs instance %s already exists", name);
	r->inst = tracefs_instance_create(name);
	if (!r->inst)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot create tracefs instance %s: %s",
				   name, strerror(errno));
	if (!tracefs_instance_is_new(r->inst)) {
		tracefs_instance_free(r->inst);	/* not ours: keep it */
		r->inst = NULL;
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "tracefs instance %s already exists", name);
	}
	return 0;
}

static void destroy_instance(struct rec *r)
{
	if (!r->inst)
		return;
	tracefs_trace_off(r->inst);
	tracefs_event_disable(r->inst, NULL, NULL);
	if (tracefs_instance_destroy(r->inst))
		fprintf(stderr, "idlelab record: could not remove tracefs "
			"instance %s: %s\n", tracefs_instance_get_name(r->inst),
			strerror(errno));
	tracefs_instance_free(r->inst);
	r->inst = NULL;
}

static int setup_instance(struct rec *r, struct idl_err *err)
{
	static const char *const systems[] = { "power", "timer", "irq",
					       "ipi", "sched", "irq_vectors",
					       REC_PROBE_GROUP, NULL };
	char mask[300], size[32];
	size_t i;
	int n = 0;

	tracefs_trace_off(r->inst);
	if (tracefs_instance_file_write(r->inst, "trace_clock", "mono") < 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot set the trace clock to mono");
	snprintf(size, sizeof(size), "%d", REC_BUFFER_KB);
	tracefs_instance_file_write(r->inst, "buffer_size_kb", size);
	if (!r->all_cpus) {
		/* tracing_cpumask: hex, CPU 0 in the lowest bit */
		int cpu, len = 0, digit;

		for (cpu = (r->nr_cpus + 3) / 4 * 4 - 4; cpu >= 0; cpu -= 4) {
			digit = 0;
			for (int b = 0; b < 4; b++)
				if (CPU_ISSET(cpu + b, &r->cpus))
					digit |= 1 << b;
			len += snprintf(mask + len, sizeof(mask) - (size_t)len,
					"%x", digit);
		}
		if (tracefs_instance_file_write(r->inst, "tracing_cpumask",
						mask) < 0)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "cannot set tracing_cpumask %s",
					   mask);
	}
	for (i = 0; i < NR_REC_EVENTS; i++) {
		if (tracefs_event_enable(r->inst, rec_events[i][0],
					 rec_events[i][1]) == 0)
			n++;
		else if (i == 0)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "cannot enable power:cpu_idle");
		else if (!r->o->quiet &&
			 strcmp(rec_events[i][0], "irq_vectors"))
			fprintf(stderr, "idlelab record: event %s:%s not "
				"available\n", rec_events[i][0],
				rec_events[i][1]);
	}
	if (r->o->probe_inputs && rec_probes_setup(r->inst, r->o->quiet,
						   err) < 0)
		return -1;
	r->tep = tracefs_local_events_system(NULL, systems);
	if (!r->tep)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "cannot read the event formats");
	load_kallsyms(r->tep);
	bin_decoder_init(&r->dec, r->tep);
	return 0;
}

static void fill_meta(struct trace_meta *m, const struct rec *r)
{
	struct utsname u;
	char buf[64], avail[256];

	trace_meta_init(m);
	uname(&u);
	snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	/* the driver comes with the table (cstate_sysfs_read) */
	if (cstate_sysfs_governors(CSTATE_SYSFS_ROOT, m->governor,
				   sizeof(m->governor), avail, sizeof(avail),
				   NULL))
		m->governor[0] = '\0';
	snprintf(m->clock, sizeof(m->clock), "mono");
	snprintf(m->tool, sizeof(m->tool), "idlelab %s", PACKAGE_VERSION);
	snprintf(buf, sizeof(buf), "%s", r->o->cpus ? r->o->cpus : "all");
	snprintf(m->source, sizeof(m->source),
		 "recorded by idlelab record on %s, CPUs %s", u.nodename, buf);
	m->hz = config_hz(u.release);
	m->nr_cpus = (uint32_t)r->nr_cpus;
	m->latency_req_ns = idl_cpu_latency_qos_ns();
}

/*
 * The live governor's tunables: its module parameters where the kernel
 * has them (haltpoll's guest_halt_poll_*), the kernel's built-in values
 * (idlelab's defaults) for the rest.  And every module parameter of the
 * governor, the cpuidle driver and the core, as read.
 */
static void live_tunables(struct trace_meta *m)
{
	static const char *const drv_mod[][2] = {
		{ "haltpoll", "cpuidle_haltpoll" }, { "acpi_idle", "processor" },
	};
	const struct idl_governor_ops *ops = idl_governor_find(m->governor);
	struct idl_governor g;
	char spec[IDL_GOV_SPEC_LEN], val[64], msg[256];
	size_t i, n;

	m->module_params[0] = '\0';
	sysfs_module_params(NULL, "cpuidle", m->module_params,
			    sizeof(m->module_params));
	if (m->governor[0])
		sysfs_module_params(NULL, m->governor, m->module_params,
				    sizeof(m->module_params));
	for (i = 0; i < sizeof(drv_mod) / sizeof(drv_mod[0]); i++)
		if (!strcmp(m->driver, drv_mod[i][0]))
			sysfs_module_params(NULL, drv_mod[i][1],
					    m->module_params,
					    sizeof(m->module_params));
	if (!ops)
		return;
	n = (size_t)snprintf(spec, sizeof(spec), "%s", ops->name);
	for (i = 0; ops->params && ops->params[i].name; i++) {
		if (sysfs_module_param(NULL, ops->name, ops->params[i].name,
				       val, sizeof(val)) || n >= sizeof(spec))
			continue;
		if (!strcmp(val, "Y") || !strcmp(val, "N"))
			snprintf(val, sizeof(val), "%d", val[0] == 'Y');
		n += (size_t)snprintf(spec + n, sizeof(spec) - n, "%c%s=%s",
				      strchr(spec, ':') ? ',' : ':',
				      ops->params[i].name, val);
	}
	if (idl_governor_parse(&g, spec, msg, sizeof(msg))) {
		fprintf(stderr, "idlelab record: warning: tunables of %s not "
			"stored: %s\n", ops->name, msg);
		return;
	}
	idl_governor_params(&g, m->governor_params,
			    sizeof(m->governor_params));
}

/*
 * The kernel's per-state counters of the recorded CPUs, at the start
 * (@end false: also reserves their room in the trace) and at the end.
 * CPUs without cpuidle (offline) are left out.
 */
static int read_counters(struct rec *r, bool end, struct idl_err *err)
{
	struct cstate_counters cc;
	struct idl_err ignore;
	size_t n = 0;
	int cpu, i;

	if (!r->ctr) {
		r->ctr = calloc((size_t)r->nr_cpus * CSTATE_MAX,
				sizeof(*r->ctr));
		if (!r->ctr)
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "out of memory");
	}
	for (cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->all_cpus && !CPU_ISSET(cpu, &r->cpus))
			continue;
		if (cstate_sysfs_counters(CSTATE_SYSFS_ROOT, (unsigned int)cpu,
					  &cc, &ignore))
			continue;
		for (i = 0; i < cc.count; i++, n++) {
			struct trace_counter *c = &r->ctr[n];
			uint64_t *v = end ? c->end : c->start;

			if (end && (c->cpu != (uint32_t)cpu ||
				    c->state != (uint32_t)i || n >= r->nctr))
				/* CPUs changed: keep none */
				return trace_writer_set_counters(r->w, r->ctr,
								 0, err);
			c->cpu = (uint32_t)cpu;
			c->state = (uint32_t)i;
			v[TC_USAGE] = cc.s[i].usage;
			v[TC_TIME_US] = cc.s[i].time_us;
			v[TC_ABOVE] = cc.s[i].above;
			v[TC_BELOW] = cc.s[i].below;
			v[TC_REJECTED] = cc.s[i].rejected;
			if (!end)
				memcpy(c->end, c->start, sizeof(c->end));
		}
	}
	if (!end)
		r->nctr = n;
	return trace_writer_set_counters(r->w, r->ctr, r->nctr, err);
}

/*
 * Start the workload.  A command that cannot be run at all (not found,
 * not executable) is bad input and nothing is recorded: the child tells
 * exec's errno through a close-on-exec pipe, which a successful exec
 * closes empty.
 */
static int start_child(struct rec *r, struct idl_err *err)
{
	int fds[2], e = 0;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC))
		return idl_err_set(err, IDL_EXIT_FAILURE, "pipe: %s",
				   strerror(errno));
	r->child = fork();
	if (r->child < 0) {
		close(fds[0]);
		close(fds[1]);
		return idl_err_set(err, IDL_EXIT_FAILURE, "fork: %s",
				   strerror(errno));
	}
	if (r->child == 0) {
		sigaction(SIGINT, &r->old_int, NULL);
		sigaction(SIGTERM, &r->old_term, NULL);
		close(fds[0]);
		execvp(r->o->command[0], r->o->command);
		e = errno;
		/* the parent reads it; when it cannot, it sees exit 126 */
		if (write(fds[1], &e, sizeof(e)) != (ssize_t)sizeof(e))
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	do
		n = read(fds[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n != (ssize_t)sizeof(e))
		return 0;
	waitpid(r->child, &r->child_status, 0);
	r->child = 0;
	return idl_err_set(err, IDL_EXIT_BADINPUT, "%s: cannot run it: %s",
			   r->o->command[0], strerror(e));
}

static bool child_running(struct rec *r)
{
	if (r->child <= 0)
		return false;
	if (waitpid(r->child, &r->child_status, WNOHANG) == r->child) {
		r->child = 0;
		return false;
	}
	return true;
}

static int capture(struct rec *r, struct idl_err *err)
{
	const struct record_opts *o = r->o;
	struct timespec pause = { 0, 100000000 };
	double end = idl_mono_s() + o->duration;

	if (read_counters(r, false, err))
		return -1;
	tracefs_trace_on(r->inst);
	if (o->command && o->command[0] && start_child(r, err))
		return -1;
	while (!rec_signalled) {
		if (o->duration > 0 && idl_mono_s() >= end)
			break;
		if (o->command && o->command[0] && !child_running(r))
			break;
		nanosleep(&pause, NULL);
		if (drain(r))
			return -1;
	}
	tracefs_trace_off(r->inst);
	if (read_counters(r, true, err))
		return -1;
	return drain(r);
}

/* The CPUs' resume-latency constraints read at the start, for import. */
static void raw_dev_qos(struct rec *r)
{
	const char *sep = " resume_latency_us=";
	int cpu;

	for (cpu = 0; cpu < TRACE_MAX_CPUS; cpu++) {
		if (r->dev_qos_us[cpu] < 0)
			continue;
		fprintf(r->raw, "%s%d:%d", sep, cpu, (int)r->dev_qos_us[cpu]);
		sep = ",";
	}
}

static int open_raw(struct rec *r, const struct trace_meta *m,
		    struct idl_err *err)
{
	int fd;

	if (!r->o->raw)
		return 0;
	fd = idl_tmp_template(r->o->raw, r->raw_tmp, sizeof(r->raw_tmp)) ?
	     (errno = ENAMETOOLONG, -1) : mkstemp(r->raw_tmp);
	if (fd < 0 || !(r->raw = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		r->raw_tmp[0] = 0;
		return idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", r->o->raw,
				   strerror(errno));
	}
	fprintf(r->raw, "# tracer: nop\n# idlelab-raw: clock=%s hz=%u "
		"latency_req_ns=%lld", m->clock, m->hz,
		(long long)m->latency_req_ns);
	raw_dev_qos(r);
	fprintf(r->raw, " kernel=%s\n", m->kernel);
	return 0;
}

static int close_raw(struct rec *r, bool ok, struct idl_err *err)
{
	int bad;

	if (!r->raw)
		return 0;
	bad = fclose(r->raw) != 0;
	r->raw = NULL;
	if (ok && !bad)
		return idl_commit(r->raw_tmp, r->o->raw, err);
	unlink(r->raw_tmp);
	return ok ? idl_err_set(err, IDL_EXIT_FAILURE, "%s: %s", r->o->raw,
				strerror(errno)) : 0;
}

static void summary(const struct rec *r, const struct model_stats *st)
{
	fprintf(stderr, "idlelab record: %llu events, %llu idle periods on "
		"%u CPUs, %llu lost events, %llu partial periods not "
		"emitted, HZ %u\n", (unsigned long long)st->events,
		(unsigned long long)st->periods, st->max_cpu,
		(unsigned long long)st->lost_events,
		(unsigned long long)(st->partial_start + st->partial_end),
		st->hz);
	if (st->late_events || st->disordered)
		fprintf(stderr, "idlelab record: %llu events arrived out of "
			"order beyond the window, %llu periods dropped\n",
			(unsigned long long)st->late_events,
			(unsigned long long)st->disordered);
	model_print_probed(st, "idlelab record: ", stderr);
	if (r->dec.no_symbols)
		fprintf(stderr, "idlelab record: some timer functions had "
			"no symbol (is /proc/kallsyms readable?)\n");
}

static int finish(struct rec *r, struct idl_err *err)
{
	const struct model_stats *st;
	struct trace_meta *wm;

	if (ev_sorter_flush(r->sorter, err) || model_finish(r->m, err))
		return -1;
	st = model_get_stats(r->m);
	wm = trace_writer_meta(r->w);
	model_fill_meta(r->m, wm);
	/* every event is enabled: absent ones did not happen */
	wm->events_seen |= ((1U << EV_LOST) - 1) & ~1U;
	wm->lost_events += overruns(r);
	if (!r->o->quiet)
		summary(r, st);
	return 0;
}

static int record_run(struct rec *r, struct idl_err *err)
{
	struct trace_meta meta;
	struct model_opts mo = { 0 };
	struct cstate_table table;
	int cpu;

	/* first what can be refused at once: the instance and the event
	 * formats took 15 s of a sanitizer build on a VM without cpuidle */
	if (cstate_sysfs_read(CSTATE_SYSFS_ROOT, 0, &table, err))
		return -1;
	cstate_sysfs_warn_mixed(CSTATE_SYSFS_ROOT, 0, &table);
	if (make_instance(r, err) || setup_instance(r, err))
		return -1;
	fill_meta(&meta, r);
	meta.table = table;
	snprintf(meta.driver, sizeof(meta.driver), "%s", meta.table.driver);
	live_tunables(&meta);
	mo.hz = meta.hz;
	mo.clock_is_mono = true;
	mo.tmigr = kernel_migrates_timers(meta.kernel);
	for (cpu = 0; cpu < TRACE_MAX_CPUS; cpu++)
		r->dev_qos_us[cpu] = cpu < r->nr_cpus ?
			idl_cpu_resume_latency_us(CSTATE_SYSFS_ROOT, cpu) : -1;
	mo.dev_qos_us = r->dev_qos_us;
	model_poll_opts(&meta.table, meta.hz, &mo);
	if (open_raw(r, &meta, err))
		return -1;
	r->w = trace_writer_create(r->o->output, &meta, err);
	if (!r->w)
		return -1;
	r->m = model_create(&mo, emit, r, err);
	r->sorter = r->m ? ev_sorter_create(REC_WINDOW, r->m, err) : NULL;
	if (!r->sorter || capture(r, err) || finish(r, err))
		return -1;
	if (trace_writer_close(r->w, err)) {
		r->w = NULL;
		return -1;
	}
	r->w = NULL;
	return close_raw(r, true, err);
}

static void cleanup(struct rec *r)
{
	if (r->child > 0) {
		kill(r->child, SIGTERM);
		waitpid(r->child, &r->child_status, 0);
		r->child = 0;
	}
	destroy_instance(r);
	if (r->o->probe_inputs)
		rec_probes_remove_unused();
	close_raw(r, false, NULL);
	if (r->w)
		trace_writer_abort(r->w);
	ev_sorter_free(r->sorter);
	model_free(r->m);
	free(r->ctr);
	if (r->tep)
		tep_free(r->tep);
	sigaction(SIGINT, &r->old_int, NULL);
	sigaction(SIGTERM, &r->old_term, NULL);
}

int trace_record(const struct record_opts *o, struct idl_err *err)
{
	struct rec r;
	struct sigaction sa;
	int ret;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.err = err;
	r.child_status = -1;
	r.nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r.nr_cpus < 1 || r.nr_cpus > TRACE_MAX_CPUS)
		r.nr_cpus = TRACE_MAX_CPUS;
	r.all_cpus = !o->cpus;
	if (o->cpus && parse_cpulist(o->cpus, &r.cpus, r.nr_cpus))
		return idl_err_set(err, IDL_EXIT_BADINPUT,
				   "--cpus: bad CPU list '%s'", o->cpus);
	if (!o->output)
		return idl_err_set(err, IDL_EXIT_BADINPUT, "no output file");
	/* rec_signalled is not cleared here: a stop asked for before the
	 * call (trace_record_stop()) ends the recording at once */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &r.old_int);
	sigaction(SIGTERM, &sa, &r.old_term);
	trace_seq_init(&r.seq);
	ret = record_run(&r, err);
	if (o->result)
		o->result->command_status = r.child_status;
	cleanup(&r);
	trace_seq_destroy(&r.seq);
	if (!ret && rec_signalled && !o->quiet)
		fprintf(stderr, "idlelab record: stopped by signal %d\n",
			(int)rec_signalled);
	rec_signalled = 0;
	return ret;
}

void trace_record_stop(void)
{
	rec_signalled = SIGTERM;
}
