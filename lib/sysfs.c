// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This machine's C-state table from sysfs.
 *
 * With the default root, libcpupower answers what it can (state count,
 * name, desc, latency, disable, driver, governor, usage, time); the
 * 6.1 library has no getters for residency, above, below, rejected or
 * default_status, so those are read from sysfs directly.  With any
 * other root (a fixture tree in the tests) everything is read from files
 * below that root, because libcpupower hard-codes /sys.
 */
#include "config.h"

#include <cpuidle.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cstate.h"
#include "host.h"

#define UNKNOWN_POWER	4294967295ULL	/* sysfs "power" when unknown */

static bool use_libcpupower(const char *root)
{
	return !strcmp(root, CSTATE_SYSFS_ROOT);
}

void cstate_sysfs_path(char *buf, size_t len, const char *root,
		       unsigned int cpu, int state, const char *file)
{
	snprintf(buf, len, "%s/cpu%u/cpuidle/state%d/%s", root, cpu, state,
		 file);
}

static int state_count(const char *root, unsigned int cpu)
{
	char path[4096];
	int n = 0;

	if (use_libcpupower(root))
		return (int)cpuidle_state_count(cpu);
	for (;;) {
		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%d", root,
			 cpu, n);
		if (access(path, F_OK))
			return n;
		n++;
	}
}

/* Copy a malloc'd libcpupower string and free it. */
static int take_str(char *s, char *dst, size_t len)
{
	if (!s)
		return -1;
	s[strcspn(s, "\n")] = '\0';
	snprintf(dst, len, "%s", s);
	free(s);
	return 0;
}

static int read_state_lib(unsigned int cpu, int i, struct cstate *s)
{
	int dis;

	if (take_str(cpuidle_state_name(cpu, (unsigned int)i), s->name,
		     sizeof(s->name)))
		return -1;
	take_str(cpuidle_state_desc(cpu, (unsigned int)i), s->desc,
		 sizeof(s->desc));
	s->exit_latency_ns = (int64_t)cpuidle_state_latency(cpu,
				(unsigned int)i) * NSEC_PER_USEC;
	dis = cpuidle_is_state_disabled(cpu, (unsigned int)i);
	s->disabled = dis == 1;
	return 0;
}

static int read_state_files(const char *root, unsigned int cpu, int i,
			    struct cstate *s)
{
	char path[4096];
	uint64_t v;

	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "name");
	if (idl_read_str(path, s->name, sizeof(s->name)))
		return -1;
	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "desc");
	idl_read_str(path, s->desc, sizeof(s->desc));
	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "latency");
	if (idl_read_u64(path, &v))
		return -1;
	s->exit_latency_ns = (int64_t)v * NSEC_PER_USEC;
	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "disable");
	s->disabled = !idl_read_u64(path, &v) && v != 0;
	return 0;
}

/* What libcpupower lacks: residency, default_status, power. */
static int read_state_extra(const char *root, unsigned int cpu, int i,
			    struct cstate *s)
{
	char path[4096], buf[32];
	uint64_t v;

	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "residency");
	if (idl_read_u64(path, &v))
		return -1;
	s->target_residency_ns = (int64_t)v * NSEC_PER_USEC;
	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "default_status");
	if (!idl_read_str(path, buf, sizeof(buf)) && !strcmp(buf, "disabled"))
		s->flags |= CSTATE_OFF;
	/* 0 and UINT_MAX both mean "not known" in practice */
	cstate_sysfs_path(path, sizeof(path), root, cpu, i, "power");
	if (!idl_read_u64(path, &v) && v != 0 && v != UNKNOWN_POWER)
		s->power = (double)v;
	if (!strcmp(s->name, "POLL"))
		s->flags |= CSTATE_POLLING;
	return 0;
}

static void read_driver(const char *root, char *buf, size_t len)
{
	char path[4096];

	buf[0] = '\0';
	if (use_libcpupower(root)) {
		if (!take_str(cpuidle_get_driver(), buf, len))
			return;
	}
	snprintf(path, sizeof(path), "%s/cpuidle/current_driver", root);
	if (idl_read_str(path, buf, len))
		snprintf(buf, len, "unknown");
}

static void describe(const char *root, unsigned int cpu,
		     struct cstate_table *t)
{
	bool lib = use_libcpupower(root);
	int i;

	read_driver(root, t->driver, sizeof(t->driver));
	if (lib) {
		snprintf(t->name, sizeof(t->name), "this machine (cpu %u)",
			 cpu);
		if (idl_read_field("/proc/cpuinfo", "model name",
				   t->description, sizeof(t->description)))
			snprintf(t->description, sizeof(t->description),
				 "this machine");
	} else {
		snprintf(t->name, sizeof(t->name), "sysfs (cpu %u)", cpu);
		snprintf(t->description, sizeof(t->description),
			 "sysfs tree %.100s", root);
	}
	snprintf(t->source, sizeof(t->source), "%.200s/cpu%u/cpuidle%s", root,
		 cpu, lib ? " via libcpupower and sysfs" : "");
	snprintf(t->rule, sizeof(t->rule),
		 "as registered by the running %s driver; default_status disabled -> OFF flag",
		 t->driver);
	for (i = 0; i < t->count; i++)
		if (!isnan(t->states[i].power))
			t->power_unit = CSTATE_POWER_MW;
}

int cstate_sysfs_read(const char *sysfs_root, unsigned int cpu,
		      struct cstate_table *t, struct idl_err *err)
{
	const char *root = sysfs_root ? sysfs_root : CSTATE_SYSFS_ROOT;
	int i, n, rc;

	memset(t, 0, sizeof(*t));
	n = state_count(root, cpu);
	if (n <= 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s/cpu%u/cpuidle: no idle states (no cpuidle driver, or no such CPU)",
				   root, cpu);
	if (n > CSTATE_MAX)
		n = CSTATE_MAX;
	for (i = 0; i < n; i++) {
		struct cstate *s = &t->states[i];

		s->power = NAN;
		s->entry_energy = NAN;
		if (use_libcpupower(root))
			rc = read_state_lib(cpu, i, s);
		else
			rc = read_state_files(root, cpu, i, s);
		if (rc || read_state_extra(root, cpu, i, s))
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s/cpu%u/cpuidle/state%d: cannot read the state",
					   root, cpu, i);
	}
	t->count = n;
	describe(root, cpu, t);
	return 0;
}

int cstate_sysfs_nr_cpus(const char *sysfs_root)
{
	const char *root = sysfs_root ? sysfs_root : CSTATE_SYSFS_ROOT;
	DIR *d = opendir(root);
	struct dirent *de;
	char p[4096];
	struct stat st;
	int max = 0;
	long n;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;

		/* cpuN, not cpufreq or cpuidle */
		if (strncmp(de->d_name, "cpu", 3) ||
		    !isdigit((unsigned char)de->d_name[3]))
			continue;
		n = strtol(de->d_name + 3, &end, 10);
		if (*end || n >= CSTATE_SYSFS_MAX_CPUS || n < max)
			continue;
		snprintf(p, sizeof(p), "%s/%s/cpuidle", root, de->d_name);
		if (!stat(p, &st) && S_ISDIR(st.st_mode))
			max = (int)n + 1;
	}
	closedir(d);
	return max;
}

/* 0 alike, 1 differing states, 2 differing disabled states only. */
static int tables_differ(const struct cstate_table *a,
			 const struct cstate_table *b)
{
	int i, dis = 0;

	if (a->count != b->count)
		return 1;
	for (i = 0; i < a->count; i++) {
		const struct cstate *x = &a->states[i], *y = &b->states[i];

		if (strcmp(x->name, y->name) ||
		    x->exit_latency_ns != y->exit_latency_ns ||
		    x->target_residency_ns != y->target_residency_ns)
			return 1;
		dis |= x->disabled != y->disabled;
	}
	return dis ? 2 : 0;
}

int cstate_sysfs_other_cpu(const char *sysfs_root, unsigned int cpu,
			   const struct cstate_table *t, const char **what)
{
	const char *root = sysfs_root ? sysfs_root : CSTATE_SYSFS_ROOT;
	unsigned int c, n = (unsigned int)cstate_sysfs_nr_cpus(root);
	struct cstate_table o;
	struct idl_err err;
	int d;

	for (c = 0; c < n; c++) {
		if (c == cpu || cstate_sysfs_read(root, c, &o, &err))
			continue;
		d = tables_differ(t, &o);
		if (d) {
			*what = d == 1 ? "idle states" : "disabled states";
			return (int)c;
		}
	}
	return -1;
}

void cstate_sysfs_warn_mixed(const char *sysfs_root, unsigned int cpu,
			     const struct cstate_table *t)
{
	const char *what;
	int c = cstate_sysfs_other_cpu(sysfs_root, cpu, t, &what);

	if (c >= 0)
		idl_warn("CPU %d's %s differ from CPU %u's: a trace holds one "
			 "table for all its CPUs", c, what, cpu);
}

static int read_counter(const char *root, unsigned int cpu, int i,
			const char *file, unsigned long long *v)
{
	char path[4096];
	uint64_t u;

	cstate_sysfs_path(path, sizeof(path), root, cpu, i, file);
	if (idl_read_u64(path, &u))
		return -1;
	*v = u;
	return 0;
}

int cstate_sysfs_counters(const char *sysfs_root, unsigned int cpu,
			  struct cstate_counters *c, struct idl_err *err)
{
	const char *root = sysfs_root ? sysfs_root : CSTATE_SYSFS_ROOT;
	bool lib = use_libcpupower(root);
	int i, n;

	memset(c, 0, sizeof(*c));
	n = state_count(root, cpu);
	if (n <= 0)
		return idl_err_set(err, IDL_EXIT_FAILURE,
				   "%s/cpu%u/cpuidle: no idle states", root,
				   cpu);
	if (n > CSTATE_MAX)
		n = CSTATE_MAX;
	for (i = 0; i < n; i++) {
		unsigned int k = (unsigned int)i;

		if (lib) {
			c->s[i].usage = cpuidle_state_usage(cpu, k);
			c->s[i].time_us = cpuidle_state_time(cpu, k);
		} else if (read_counter(root, cpu, i, "usage",
					&c->s[i].usage) ||
			   read_counter(root, cpu, i, "time",
					&c->s[i].time_us)) {
			return idl_err_set(err, IDL_EXIT_FAILURE,
					   "%s/cpu%u/cpuidle/state%d: cannot read usage/time",
					   root, cpu, i);
		}
		/* older kernels lack these: leave them 0 */
		read_counter(root, cpu, i, "above", &c->s[i].above);
		read_counter(root, cpu, i, "below", &c->s[i].below);
		read_counter(root, cpu, i, "rejected", &c->s[i].rejected);
	}
	c->count = n;
	return 0;
}

int cstate_sysfs_governors(const char *sysfs_root, char *current,
			   size_t current_len, char *available,
			   size_t available_len, struct idl_err *err)
{
	const char *root = sysfs_root ? sysfs_root : CSTATE_SYSFS_ROOT;
	char path[4096];

	current[0] = '\0';
	if (use_libcpupower(root))
		take_str(cpuidle_get_governor(), current, current_len);
	if (!current[0]) {
		snprintf(path, sizeof(path), "%s/cpuidle/current_governor_ro",
			 root);
		if (idl_read_str(path, current, current_len)) {
			snprintf(path, sizeof(path),
				 "%s/cpuidle/current_governor", root);
			if (idl_read_str(path, current, current_len))
				return idl_err_set(err, IDL_EXIT_FAILURE,
						   "%s/cpuidle: no current governor (cpuidle disabled?)",
						   root);
		}
	}
	snprintf(path, sizeof(path), "%s/cpuidle/available_governors", root);
	if (idl_read_str(path, available, available_len))
		snprintf(available, available_len, "%s", current);
	return 0;
}

int sysfs_module_param(const char *root, const char *module,
		       const char *param, char *buf, size_t len)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s/parameters/%s",
		 root ? root : SYSFS_MODULE_ROOT, module, param);
	return idl_read_str(path, buf, len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sysfs_module_params(const char *root, const char *module, char *buf,
			size_t len)
{
	char path[4096], val[128], *names[64];
	struct dirent *de;
	size_t n = strlen(buf), k, nn = 0;
	DIR *d;
	int w;

	snprintf(path, sizeof(path), "%s/%s/parameters",
		 root ? root : SYSFS_MODULE_ROOT, module);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)) && nn < sizeof(names) / sizeof(names[0]))
		if (de->d_name[0] != '.' && (names[nn] = strdup(de->d_name)))
			nn++;
	closedir(d);
	qsort(names, nn, sizeof(names[0]), by_name);
	for (k = 0; k < nn; k++) {
		/* write-only or unreadable parameters are left out */
		if (!sysfs_module_param(root, module, names[k], val,
					sizeof(val)) && !strpbrk(val, " \t")) {
			w = snprintf(buf + n, len - n, "%s%s.%s=%s",
				     n ? " " : "", module, names[k], val);
			if (w > 0 && (size_t)w < len - n)
				n += (size_t)w;
			else
				buf[n] = '\0';	/* keep whole entries only */
		}
		free(names[k]);
	}
	return 0;
}
