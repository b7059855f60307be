// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The governor registry, tunable parsing, binding a governor instance to a
 * device, and the explain sink.  The counterpart of the kernel's
 * drivers/cpuidle/governor.c, plus the parts a userspace harness needs:
 * several configured instances of one governor side by side, each with
 * its own tunable values.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <idlelab/governor.h>

#include "explain.h"
#include "plugin.h"

/* The environment the kernel helpers of governor.h answer from. */
__thread struct idl_env *idl_current_env;

/* The built-in governors: one line each in governors/Makefile.inc. */
#define IDL_GOVERNOR(sym) extern const struct idl_governor_ops sym;
#include "governors/gov-list.h"
#undef IDL_GOVERNOR
#define IDL_GOVERNOR(sym) &sym,
static const struct idl_governor_ops *const builtin[] = {
#include "governors/gov-list.h"
};
#undef IDL_GOVERNOR

#define NR_BUILTIN	(sizeof(builtin) / sizeof(builtin[0]))

/*
 * The one list of governors: the built-in ones in their order, then the
 * ones registered at run time (plugins), NULL-terminated.
 */
static const struct idl_governor_ops *registered[IDL_MAX_GOVERNORS + 1];
static size_t nr_registered;

static void init_list(void)
{
	size_t i;

	if (nr_registered)
		return;
	for (i = 0; i < NR_BUILTIN && i < IDL_MAX_GOVERNORS; i++)
		registered[i] = builtin[i];
	nr_registered = i;
}

const struct idl_governor_ops *const *idl_governor_list(void)
{
	init_list();
	return registered;
}

const struct idl_governor_ops *idl_governor_find(const char *name)
{
	const struct idl_governor_ops *const *g;

	for (g = idl_governor_list(); *g; g++)
		if (!strcmp((*g)->name, name))
			return *g;
	return NULL;
}

int idl_governor_register(const struct idl_governor_ops *ops, char *err,
			  size_t errlen)
{
	init_list();
	if (!ops->name || !ops->name[0] || !ops->select) {
		snprintf(err, errlen, "a governor needs a name and select()");
		return -1;
	}
	if (strchr(ops->name, ':') || strchr(ops->name, ',') ||
	    strchr(ops->name, '=')) {
		snprintf(err, errlen, "governor name '%s': ':', ',' and '=' "
			 "separate specs", ops->name);
		return -1;
	}
	if (idl_governor_find(ops->name)) {
		snprintf(err, errlen, "a governor named '%s' is already "
			 "registered", ops->name);
		return -1;
	}
	if (nr_registered == IDL_MAX_GOVERNORS) {
		snprintf(err, errlen, "at most %d governors",
			 IDL_MAX_GOVERNORS);
		return -1;
	}
	registered[nr_registered++] = ops;
	return 0;
}

/* "a, b, c" into @buf. */
static void list_governors(char *buf, size_t len)
{
	const struct idl_governor_ops *const *g;
	size_t n = 0;

	buf[0] = '\0';
	for (g = idl_governor_list(); *g && n < len; g++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      n ? ", " : "", (*g)->name);
}

static void list_params(const struct idl_governor_ops *ops, char *buf,
			size_t len)
{
	const struct idl_gov_param *p;
	size_t n = 0;

	buf[0] = '\0';
	if (!ops->params || !ops->params[0].name) {
		snprintf(buf, len, "it has none");
		return;
	}
	for (p = ops->params; p->name && n < len; p++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      p == ops->params ? "" : ", ", p->name);
}

static int nr_params(const struct idl_governor_ops *ops)
{
	int n = 0;

	while (ops->params && ops->params[n].name)
		n++;
	return n;
}

static int find_param(const struct idl_governor_ops *ops, const char *name,
		      size_t len)
{
	int i;

	for (i = 0; i < nr_params(ops); i++)
		if (strlen(ops->params[i].name) == len &&
		    !strncmp(ops->params[i].name, name, len))
			return i;
	return -1;
}

/* One "param=value" item of length @len; sets gov->param[].  @seen:
 * the parameters already given (twice would leave one value unused). */
static int parse_item(struct idl_governor *gov, const char *item, size_t len,
		      unsigned long long *seen, char *err, size_t errlen)
{
	const struct idl_governor_ops *ops = gov->ops;
	const struct idl_gov_param *p;
	const char *eq = memchr(item, '=', len);
	char names[256], val[32], *end;
	long long v;
	int i;

	if (!eq || eq == item) {
		snprintf(err, errlen, "%s: '%.*s' is not param=value",
			 ops->name, (int)len, item);
		return -1;
	}
	i = find_param(ops, item, (size_t)(eq - item));
	if (i < 0) {
		list_params(ops, names, sizeof(names));
		snprintf(err, errlen,
			 "%s: unknown parameter '%.*s' (parameters: %s)",
			 ops->name, (int)(eq - item), item, names);
		return -1;
	}
	p = &ops->params[i];
	if (*seen & 1ULL << i) {
		snprintf(err, errlen, "%s: %s given twice", ops->name,
			 p->name);
		return -1;
	}
	*seen |= 1ULL << i;
	len -= (size_t)(eq + 1 - item);
	if (len == 0 || len >= sizeof(val)) {
		snprintf(err, errlen, "%s: %s: '%.*s' is not a decimal integer",
			 ops->name, p->name, (int)len, eq + 1);
		return -1;
	}
	memcpy(val, eq + 1, len);
	val[len] = '\0';
	errno = 0;
	v = strtoll(val, &end, 10);
	if (*end || errno || !(val[0] == '-' || (val[0] >= '0' &&
						  val[0] <= '9'))) {
		snprintf(err, errlen, "%s: %s: '%s' is not a decimal integer",
			 ops->name, p->name, val);
		return -1;
	}
	if (v < p->min || v > p->max) {
		snprintf(err, errlen,
			 "%s: %s=%lld is out of range [%lld, %lld]",
			 ops->name, p->name, v, p->min, p->max);
		return -1;
	}
	gov->param[i] = v;
	return 0;
}

/*
 * The canonical spec: the name, then the parameters whose values differ
 * from the kernel's defaults, in the governor's parameter order.  So
 * "haltpoll:guest_halt_poll_ns=200000" and "haltpoll" name the same thing.
 */
static int make_spec(struct idl_governor *gov, char *err, size_t errlen)
{
	const struct idl_governor_ops *ops = gov->ops;
	size_t n, len = sizeof(gov->spec);
	char sep = ':';
	int i;

	n = (size_t)snprintf(gov->spec, len, "%s", ops->name);
	for (i = 0; i < nr_params(ops) && n < len; i++) {
		if (gov->param[i] == ops->params[i].def)
			continue;
		n += (size_t)snprintf(gov->spec + n, len - n, "%c%s=%lld", sep,
				      ops->params[i].name, gov->param[i]);
		sep = ',';
	}
	if (n >= len) {
		snprintf(err, errlen, "%s: governor spec too long", ops->name);
		return -1;
	}
	return 0;
}

static int parse_params(struct idl_governor *gov, const char *spec,
			const char *colon, char *err, size_t errlen);

/* "./x.so[:params]": load the plugin, then parse as usual. */
static int parse_plugin(struct idl_governor *gov, const char *spec,
			size_t nlen, char *err, size_t errlen)
{
	const struct idl_governor_ops *ops;
	char path[IDL_GOV_SPEC_LEN];
	struct idl_err e;

	if (nlen >= sizeof(path)) {
		snprintf(err, errlen, "plugin path too long");
		return -1;
	}
	memcpy(path, spec, nlen);
	path[nlen] = '\0';
	if (idl_plugin_load(path, &ops, &e)) {
		snprintf(err, errlen, "%s", e.msg);
		return -1;
	}
	gov->ops = ops;
	return parse_params(gov, spec, nlen < strlen(spec) ? spec + nlen :
			    NULL, err, errlen);
}

int idl_governor_parse(struct idl_governor *gov, const char *spec,
		       char *err, size_t errlen)
{
	const struct idl_governor_ops *const *g;
	const char *colon = strchr(spec, ':');
	size_t nlen = colon ? (size_t)(colon - spec) : strlen(spec);
	char names[256];

	memset(gov, 0, sizeof(*gov));
	for (g = idl_governor_list(); *g; g++)
		if (strlen((*g)->name) == nlen &&
		    !strncmp((*g)->name, spec, nlen))
			break;
	if (!*g && idl_plugin_path(spec, nlen))
		return parse_plugin(gov, spec, nlen, err, errlen);
	if (!*g) {
		list_governors(names, sizeof(names));
		snprintf(err, errlen, "unknown governor '%.*s' (governors: %s)",
			 (int)nlen, spec, names);
		return -1;
	}
	gov->ops = *g;
	return parse_params(gov, spec, colon, err, errlen);
}

static int parse_params(struct idl_governor *gov, const char *spec,
			const char *colon, char *err, size_t errlen)
{
	const char *item, *next;
	unsigned long long seen = 0;
	int i;

	_Static_assert(IDL_GOV_MAX_PARAMS <= 64, "a bit per parameter");
	if (nr_params(gov->ops) > IDL_GOV_MAX_PARAMS) {
		snprintf(err, errlen, "%s: too many parameters",
			 gov->ops->name);
		return -1;
	}
	for (i = 0; i < nr_params(gov->ops); i++)
		gov->param[i] = gov->ops->params[i].def;

	for (item = colon ? colon + 1 : NULL; item; item = next) {
		const char *comma = strchr(item, ',');
		size_t len = comma ? (size_t)(comma - item) : strlen(item);

		next = comma ? comma + 1 : NULL;
		if (len == 0) {
			snprintf(err, errlen, "%s: empty parameter in '%s'",
				 gov->ops->name, spec);
			return -1;
		}
		if (parse_item(gov, item, len, &seen, err, errlen))
			return -1;
	}
	return make_spec(gov, err, errlen);
}

void idl_governor_defaults(struct idl_governor *gov)
{
	int i;

	for (i = 0; i < nr_params(gov->ops) && i < IDL_GOV_MAX_PARAMS; i++)
		gov->param[i] = gov->ops->params[i].def;
}

int idl_governor_apply(struct idl_governor *gov, const char *params,
		       char *err, size_t errlen)
{
	const char *item = params, *comma, *eq;
	unsigned long long seen = 0;
	size_t len;

	while (item && *item) {
		comma = strchr(item, ',');
		len = comma ? (size_t)(comma - item) : strlen(item);
		eq = memchr(item, '=', len);
		if (eq && find_param(gov->ops, item, (size_t)(eq - item)) >= 0 &&
		    parse_item(gov, item, len, &seen, err, errlen))
			return -1;
		item = comma ? comma + 1 : NULL;
	}
	return 0;
}

void idl_governor_params(const struct idl_governor *gov, char *buf,
			 size_t len)
{
	const struct idl_governor_ops *ops = gov->ops;
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr_params(ops) && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%lld",
				      i ? "," : "", ops->params[i].name,
				      gov->param[i]);
}

int idl_governor_attach(struct cpuidle_device *dev,
			const struct idl_governor *gov,
			struct cpuidle_driver *drv)
{
	const struct idl_governor_ops *ops = gov->ops;
	int ret = 0;

	dev->governor_data = calloc(1, ops->data_size ? ops->data_size : 1);
	if (!dev->governor_data)
		return -ENOMEM;
	dev->governor = gov;
	if (ops->enable)
		ret = ops->enable(drv, dev);
	if (ret) {
		free(dev->governor_data);
		dev->governor_data = NULL;
		dev->governor = NULL;
	}
	return ret;
}

void idl_governor_detach(struct cpuidle_device *dev,
			 struct cpuidle_driver *drv)
{
	if (!dev->governor)
		return;
	if (dev->governor->ops->disable)
		dev->governor->ops->disable(drv, dev);
	free(dev->governor_data);
	dev->governor_data = NULL;
	dev->governor = NULL;
}

/* One explain line: the sink's prefix, the text, and a newline if the
 * text did not end with one. */
void idl_explain_printf(struct idl_explain *ex, const char *fmt, ...)
{
	size_t n = strlen(fmt);
	va_list ap;

	if (!ex || !ex->out)
		return;
	if (ex->prefix)
		fputs(ex->prefix, ex->out);
	va_start(ap, fmt);
	vfprintf(ex->out, fmt, ap);
	va_end(ap);
	if (n == 0 || fmt[n - 1] != '\n')
		fputc('\n', ex->out);
}
