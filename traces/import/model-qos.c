// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's PM QoS latency constraints: which constraint a traced
 * change is, and the one each idle period is entered under
 * (doc/importing.md, "PM QoS latency constraints").
 */
#include "config.h"

#include <stdint.h>

#include "model-int.h"

/*
 * PM QoS.  pm_qos_update_target reports every constraint the kernel
 * aggregates (CPU latency, each device's resume latency, frequency
 * limits) without naming it; the request event traced just before it
 * on the same CPU does: pm_qos_{add,update,remove}_request for the CPU
 * latency QoS, dev_pm_qos_*_request for a device.  An update with no
 * request before it is taken for the CPU latency one only in a capture
 * without pm_qos_*_request events, and only if it continues the chain of
 * values from the kernel's default.
 */
#define QOS_PEND_NONE		0
#define QOS_PEND_CPU_LATENCY	1
#define QOS_PEND_DEVICE		2	/* qos_pend_cpu's resume latency */
#define QOS_PEND_OTHER		3
#define QOS_PAIR_NS		1000000	/* request to update, at most */
#define QOS_CPU_DEFAULT_US	2000000000	/* PM_QOS_CPU_LATENCY_DEFAULT */
#define QOS_NO_CONSTRAINT_US	INT32_MAX	/* device: none */

void model_qos_request(struct model *m, const struct raw_event *e)
{
	struct cpu_state *c = &m->cpus[e->cpu];

	if (e->type == EV_PM_QOS_REQUEST) {
		c->qos_pend = e->qreq.other ? QOS_PEND_OTHER :
			      QOS_PEND_CPU_LATENCY;
		m->qos_req_seen = true;
	} else {
		c->qos_pend = e->dqreq.cpu >= 0 ? QOS_PEND_DEVICE :
			      QOS_PEND_OTHER;
		c->qos_pend_cpu = e->dqreq.cpu;
	}
	c->qos_pend_ts = e->ts;
}

/* The CPU latency QoS changed: periods entered from now on carry it;
 * those before the first change are left to the trace's constraint,
 * which was its prev_value. */
static void qos_cpu_latency(struct model *m, const struct raw_event *e)
{
	if (m->st.qos_start_us < 0)
		m->st.qos_start_us = e->qos.prev;
	if (e->qos.curr != e->qos.prev)
		m->st.qos_changes++;
	m->qos_us = e->qos.curr;
}

void model_qos_update(struct model *m, const struct raw_event *e)
{
	struct cpu_state *c = &m->cpus[e->cpu];
	int pend = c->qos_pend && e->ts - c->qos_pend_ts <= QOS_PAIR_NS ?
		   c->qos_pend : QOS_PEND_NONE;

	c->qos_pend = QOS_PEND_NONE;
	if (e->qos.curr < 0 || e->qos.prev < 0)
		return;
	switch (pend) {
	case QOS_PEND_CPU_LATENCY:
		qos_cpu_latency(m, e);
		break;
	case QOS_PEND_DEVICE:
		m->cpus[c->qos_pend_cpu].dev_qos_us =
			e->qos.curr == QOS_NO_CONSTRAINT_US ? -1 : e->qos.curr;
		break;
	case QOS_PEND_NONE:
		if (!m->qos_req_seen &&
		    e->qos.prev == (m->qos_us >= 0 ? m->qos_us :
				    QOS_CPU_DEFAULT_US))
			qos_cpu_latency(m, e);
		break;
	default:
		break;
	}
}

/* The constraint of @c's next period: the CPU latency QoS and its own
 * resume-latency QoS, the lower of those known; -1 if neither is. */
int32_t model_qos_at_entry(const struct model *m, const struct cpu_state *c)
{
	if (c->dev_qos_us < 0)
		return m->qos_us;
	if (m->qos_us < 0 || c->dev_qos_us < m->qos_us)
		return c->dev_qos_us;
	return m->qos_us;
}
