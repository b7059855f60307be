// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Perf counters via libpfm4 and energy via RAPL or a model.  See
 * measure.h and doc/live.md.
 */
#include "config.h"

/* libpfm4: its header must come before nothing else from perf */
#include <perfmon/pfmlib_perf_event.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "measure.h"

/* ---------------------------------------------------------------- perf */

static const struct {
	const char *name, *pfm;
} default_events[] = {
	{ "cycles", "cycles" },
	{ "instructions", "instructions" },
	{ "context-switches", "perf::PERF_COUNT_SW_CONTEXT_SWITCHES" },
	{ "cpu-migrations", "perf::PERF_COUNT_SW_CPU_MIGRATIONS" },
	{ "cpu-clock", "perf::PERF_COUNT_SW_CPU_CLOCK" },
};

const char *perfctr_errno_class(int e)
{
	switch (e) {
	case EACCES:
	case EPERM:
		return "permission";
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
	case EINVAL:
	case ENOSYS:
	case ENXIO:
		return "not supported";
	default:
		return "error";
	}
}

/*
 * libpfm4 is opened when counters are, not linked: its event tables hold
 * some 41 000 pointers that the dynamic loader would relocate at every
 * start of every subcommand, 4 ms of a 15 ms `idlelab --version` on the
 * development VM (doc/performance.md).  Its four functions, with the
 * header's own types.
 */
static struct {
	void *handle;
	__typeof__(pfm_initialize) *initialize;
	__typeof__(pfm_terminate) *terminate;
	__typeof__(pfm_get_os_event_encoding) *get_os_event_encoding;
	__typeof__(pfm_strerror) *strerror;
} pfm;

static int pfm_load(struct idl_err *err)
{
	void *h;

	if (pfm.handle)
		return 0;
	h = dlopen(PFM_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return idl_err_set(err, IDL_EXIT_FAILURE, "libpfm4: %s",
				   dlerror());
	pfm.initialize = (__typeof__(pfm.initialize))dlsym(h, "pfm_initialize");
	pfm.terminate = (__typeof__(pfm.terminate))dlsym(h, "pfm_terminate");
	pfm.get_os_event_encoding = (__typeof__(pfm.get_os_event_encoding))
		dlsym(h, "pfm_get_os_event_encoding");
	pfm.strerror = (__typeof__(pfm.strerror))dlsym(h, "pfm_strerror");
	if (!pfm.initialize || !pfm.terminate || !pfm.get_os_event_encoding ||
	    !pfm.strerror) {
		dlclose(h);
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "libpfm4: %s lacks a function of its API",
				   PFM_SONAME);
	}
	pfm.handle = h;
	return 0;
}

static int encode(const char *ev, struct perf_event_attr *attr, char *why,
		  size_t len)
{
	pfm_perf_encode_arg_t arg;
	int rc;

	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	rc = pfm.get_os_event_encoding(ev, PFM_PLM0 | PFM_PLM3,
				       PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		snprintf(why, len, "not supported (libpfm4: %s)",
			 pfm.strerror(rc));
		return -1;
	}
	attr->size = sizeof(*attr);	/* the encoder leaves it 0 */
	return 0;
}

static void close_fds(const int *fds, int n)
{
	int cpu;

	for (cpu = 0; cpu < n; cpu++)
		if (fds[cpu] >= 0)
			close(fds[cpu]);
}

static void open_event(struct perfctr_event *e, int nr_cpus)
{
	struct perf_event_attr attr;
	int cpu, opened = 0, er = ENODEV;

	e->fds = malloc((size_t)nr_cpus * sizeof(int));
	if (!e->fds) {
		snprintf(e->status, sizeof(e->status), "error (no memory)");
		return;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++)
		e->fds[cpu] = -1;
	if (encode(e->pfm_name, &attr, e->status, sizeof(e->status)))
		return;
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		e->fds[cpu] = perf_event_open(&attr, -1, cpu, -1,
					      PERF_FLAG_FD_CLOEXEC);
		if (e->fds[cpu] >= 0) {
			opened++;
			continue;
		}
		er = errno;
		/* an offline CPU (the kernel's answer for one): not counted */
		if (er == ENODEV)
			continue;
		close_fds(e->fds, cpu);
		break;
	}
	if (cpu < nr_cpus || !opened) {
		snprintf(e->status, sizeof(e->status), "%s (%s)",
			 perfctr_errno_class(er), strerror(er));
		return;
	}
	e->ok = true;
	snprintf(e->status, sizeof(e->status), "ok");
}

int perfctr_open(struct perfctr *p, int nr_cpus, struct idl_err *err)
{
	size_t i;
	int rc;

	memset(p, 0, sizeof(*p));
	p->nr_cpus = nr_cpus;
	if (pfm_load(err))
		return -1;
	rc = pfm.initialize();
	if (rc != PFM_SUCCESS)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "libpfm4: %s", pfm.strerror(rc));
	for (i = 0; i < sizeof(default_events) / sizeof(default_events[0]);
	     i++) {
		struct perfctr_event *e = &p->ev[p->nr++];

		e->name = default_events[i].name;
		e->pfm_name = default_events[i].pfm;
		open_event(e, nr_cpus);
	}
	return 0;
}

void perfctr_read(const struct perfctr *p, uint64_t *vals)
{
	int i, cpu;

	for (i = 0; i < p->nr; i++) {
		vals[i] = 0;
		if (!p->ev[i].ok)
			continue;
		for (cpu = 0; cpu < p->nr_cpus; cpu++) {
			uint64_t v;

			if (p->ev[i].fds[cpu] >= 0 &&
			    read(p->ev[i].fds[cpu], &v, sizeof(v)) ==
			    sizeof(v))
				vals[i] += v;
		}
	}
}

void perfctr_close(struct perfctr *p)
{
	int i;

	for (i = 0; i < p->nr; i++) {
		if (p->ev[i].ok)
			close_fds(p->ev[i].fds, p->nr_cpus);
		free(p->ev[i].fds);
		p->ev[i].fds = NULL;
		p->ev[i].ok = false;
	}
	/* (the library stays open: a later perfctr_open() reuses it) */
	if (pfm.handle)
		pfm.terminate();
}

/* -------------------------------------------------------------- energy */

const char *rapl_root(void)
{
	const char *r = getenv("IDLELAB_POWERCAP_ROOT");

	return r && *r ? r : "/sys/class/powercap";
}

static int zone_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rapl_zone *)a)->path,
		      ((const struct rapl_zone *)b)->path);
}

int rapl_open(const char *root, struct rapl *r)
{
	DIR *d = opendir(root);
	struct dirent *de;
	char p[512], buf[64];

	memset(r, 0, sizeof(*r));
	if (!d)
		return 0;
	while ((de = readdir(d)) && r->nr < RAPL_MAX_ZONES) {
		struct rapl_zone *z = &r->z[r->nr];
		unsigned int n;
		char tail;

		if (sscanf(de->d_name, "intel-rapl:%u%c", &n, &tail) != 1)
			continue;	/* not a top-level zone */
		snprintf(p, sizeof(p), "%s/%s/max_energy_range_uj", root,
			 de->d_name);
		if (idl_read_str(p, buf, sizeof(buf)))
			continue;
		z->max_range_uj = strtoull(buf, NULL, 10);
		snprintf(z->path, sizeof(z->path), "%s/%s/energy_uj", root,
			 de->d_name);
		snprintf(p, sizeof(p), "%s/%s/name", root, de->d_name);
		if (idl_read_str(p, z->name, sizeof(z->name)))
			snprintf(z->name, sizeof(z->name), "%.63s",
				 de->d_name);
		if (idl_read_str(z->path, buf, sizeof(buf)))
			continue;	/* root-only since CVE-2020-8694 */
		r->nr++;
	}
	closedir(d);
	qsort(r->z, (size_t)r->nr, sizeof(r->z[0]), zone_cmp);
	return r->nr;
}

int rapl_read(const struct rapl *r, uint64_t *uj)
{
	char buf[64];
	int i;

	for (i = 0; i < r->nr; i++) {
		if (idl_read_str(r->z[i].path, buf, sizeof(buf)))
			return -1;
		uj[i] = strtoull(buf, NULL, 10);
	}
	return 0;
}

uint64_t rapl_delta(uint64_t before, uint64_t after, uint64_t max_range)
{
	if (after >= before)
		return after - before;
	return max_range - before + after;
}

double energy_model_state_power(const struct idle_snapshot *d, int state)
{
	double p = 1.0;
	int k;

	if (d->info[state].polling)
		return 1.0;
	for (k = 0; k <= state; k++)
		if (!d->info[k].polling)
			p *= 0.5;
	return p;
}

double energy_modelled(const struct idle_snapshot *d, double wall_us)
{
	double idle_us = 0, e = 0, busy;
	int cpu, st;

	for (st = 0; st < d->nr_states; st++) {
		double pw = energy_model_state_power(d, st);
		double lat = (double)d->info[st].exit_latency_us;

		for (cpu = 0; cpu < d->nr_cpus; cpu++) {
			const typeof(*d->c) *c = &d->c[cpu * CSTATE_MAX + st];

			idle_us += (double)c->time_us;
			e += (double)c->time_us * pw + (double)c->usage * lat;
		}
	}
	busy = wall_us * d->nr_present - idle_us;
	if (busy < 0)
		busy = 0;
	return (e + busy) / 1e6;
}
