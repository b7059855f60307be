// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of pending timers the model keeps: hrtimers and timer-wheel
 * timers, hashed by address for the events that name them, and linked
 * per CPU for the snapshot of a select's inputs (model-ev-idle.c).  Its
 * size is fixed (MODEL_TIMER_SLOTS): nothing grows with the trace.
 */
#include "config.h"

#include "model-int.h"

static uint32_t key_bucket(uint64_t key)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ULL) >> 48) &
	       (MODEL_TIMER_SLOTS - 1);
}

uint64_t model_timer_key(uint8_t kind, uint64_t ptr)
{
	/* hrtimers and timer_lists are distinct objects; keep them apart */
	return kind == TK_WHEEL ? ptr ^ 0x8000000000000001ULL : ptr;
}

int32_t model_timer_find(struct model *m, uint64_t key)
{
	int32_t i = m->buckets[key_bucket(key)];

	while (i != NIL && m->nodes[i].key != key)
		i = m->nodes[i].hnext;
	return i;
}

static void list_del(struct model *m, int32_t i)
{
	struct timer_node *n = &m->nodes[i];

	if (n->prev != NIL)
		m->nodes[n->prev].next = n->next;
	else
		m->cpus[n->cpu].timers = n->next;
	if (n->next != NIL)
		m->nodes[n->next].prev = n->prev;
}

static void list_add(struct model *m, int32_t i, uint32_t cpu)
{
	struct timer_node *n = &m->nodes[i];

	n->cpu = cpu;
	n->prev = NIL;
	n->next = m->cpus[cpu].timers;
	if (n->next != NIL)
		m->nodes[n->next].prev = i;
	m->cpus[cpu].timers = i;
}

void model_timer_remove(struct model *m, uint64_t key)
{
	int32_t *pp = &m->buckets[key_bucket(key)];

	while (*pp != NIL && m->nodes[*pp].key != key)
		pp = &m->nodes[*pp].hnext;
	if (*pp == NIL)
		return;
	int32_t i = *pp;

	*pp = m->nodes[i].hnext;
	list_del(m, i);
	m->nodes[i].hnext = m->free_list;
	m->free_list = i;
}

void model_timer_set(struct model *m, uint8_t kind, uint64_t ptr,
		      uint32_t cpu, int64_t exp, uint32_t flags)
{
	uint64_t key = model_timer_key(kind, ptr);
	int32_t i = model_timer_find(m, key);
	uint32_t b;

	if (i == NIL) {
		if (m->free_list == NIL) {
			m->st.timer_table_full++;
			return;
		}
		i = m->free_list;
		m->free_list = m->nodes[i].hnext;
		b = key_bucket(key);
		m->nodes[i].key = key;
		m->nodes[i].hnext = m->buckets[b];
		m->buckets[b] = i;
	} else {
		list_del(m, i);
	}
	m->nodes[i].kind = kind;
	m->nodes[i].exp = exp;
	m->nodes[i].deferrable = flags & EV_TIMER_DEFERRABLE;
	m->nodes[i].pinned = flags & EV_TIMER_PINNED;
	list_add(m, i, cpu);
}
