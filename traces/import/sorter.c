// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bounded reordering window that readers put in front of the model
 * (struct ev_sorter, model.h): up to @cap events are held, and each push
 * beyond that feeds the model the earliest held one, by (ts, input
 * order).
 *
 * Inputs are nearly always in time order already, so events are held in
 * two places: a ring of the events that arrived no earlier than the last
 * one put there (in order by construction: appending is O(1)) and a
 * binary heap of the stragglers, keyed by (ts, seq) only.  The earliest
 * held event is the earlier of the ring's head and the heap's top, so the
 * model sees exactly the order of a single priority queue, at a constant
 * cost per event for sorted input.  The events themselves stay in one
 * pool of @cap slots; the ring and the heap hold slot numbers.
 */
#include "config.h"

#include <stdlib.h>

#include "model.h"

struct sorter_key {
	uint64_t	ts, seq;
	uint32_t	slot;
};

struct ev_sorter {
	struct model		*m;
	uint32_t		cap;
	uint64_t		seq;
	struct raw_event	*pool;		/* cap slots */
	uint32_t		*free;		/* free slot numbers, a stack */
	uint32_t		nfree;
	uint32_t		*ring;		/* in-order slots, oldest first */
	uint32_t		rhead, rn;
	struct sorter_key	*heap;		/* out-of-order arrivals */
	uint32_t		hn;
};

void ev_sorter_free(struct ev_sorter *s)
{
	if (!s)
		return;
	free(s->pool);
	free(s->free);
	free(s->ring);
	free(s->heap);
	free(s);
}

struct ev_sorter *ev_sorter_create(size_t cap, struct model *m,
				   struct idl_err *err)
{
	struct ev_sorter *s = calloc(1, sizeof(*s));
	uint32_t i;

	if (cap < 1)
		cap = 1;
	if (cap > UINT32_MAX / 2)
		cap = UINT32_MAX / 2;
	if (s) {
		s->pool = malloc(cap * sizeof(*s->pool));
		s->free = malloc(cap * sizeof(*s->free));
		s->ring = malloc(cap * sizeof(*s->ring));
		s->heap = malloc(cap * sizeof(*s->heap));
	}
	if (!s || !s->pool || !s->free || !s->ring || !s->heap) {
		ev_sorter_free(s);
		idl_err_set(err, IDL_EXIT_FAILURE, "out of memory");
		return NULL;
	}
	s->m = m;
	s->cap = (uint32_t)cap;
	for (i = 0; i < s->cap; i++)
		s->free[i] = s->cap - 1 - i;
	s->nfree = s->cap;
	return s;
}

static bool key_before(const struct sorter_key *a, const struct sorter_key *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void heap_push(struct ev_sorter *s, const struct sorter_key *k)
{
	uint32_t i = s->hn++, up;

	while (i > 0 && key_before(k, &s->heap[up = (i - 1) / 2])) {
		s->heap[i] = s->heap[up];
		i = up;
	}
	s->heap[i] = *k;
}

/* Remove the heap's top; its slot number is returned. */
static uint32_t heap_pop(struct ev_sorter *s)
{
	uint32_t top = s->heap[0].slot, i = 0, n = --s->hn;
	struct sorter_key last = s->heap[n];

	for (;;) {
		uint32_t l = 2 * i + 1, min = l;

		if (l >= n)
			break;
		if (l + 1 < n && key_before(&s->heap[l + 1], &s->heap[l]))
			min = l + 1;
		if (!key_before(&s->heap[min], &last))
			break;
		s->heap[i] = s->heap[min];
		i = min;
	}
	if (n)
		s->heap[i] = last;
	return top;
}

/* Feed the model the earliest held event and free its slot. */
static int sorter_pop(struct ev_sorter *s, struct idl_err *err)
{
	uint32_t slot;

	if (s->rn) {
		const struct raw_event *r = &s->pool[s->ring[s->rhead]];
		struct sorter_key k = { r->ts, r->seq, 0 };

		if (!s->hn || key_before(&k, &s->heap[0])) {
			slot = s->ring[s->rhead];
			s->rhead = s->rhead + 1 == s->cap ? 0 : s->rhead + 1;
			s->rn--;
			goto feed;
		}
	}
	slot = heap_pop(s);
feed:
	s->free[s->nfree++] = slot;
	return model_feed(s->m, &s->pool[slot], err);
}

int ev_sorter_push(struct ev_sorter *s, const struct raw_event *e,
		   struct idl_err *err)
{
	struct raw_event *x;
	uint32_t slot, tail;

	if (!s->nfree && sorter_pop(s, err))
		return -1;
	slot = s->free[--s->nfree];
	x = &s->pool[slot];
	*x = *e;
	x->seq = s->seq++;
	/* seq only grows: at or after the ring's tail means ts >= its ts */
	tail = s->rhead + s->rn - 1;
	if (tail >= s->cap)
		tail -= s->cap;
	if (!s->rn || x->ts >= s->pool[s->ring[tail]].ts) {
		tail = s->rhead + s->rn++;
		s->ring[tail >= s->cap ? tail - s->cap : tail] = slot;
	} else {
		struct sorter_key k = { x->ts, x->seq, slot };

		heap_push(s, &k);
	}
	return 0;
}

int ev_sorter_flush(struct ev_sorter *s, struct idl_err *err)
{
	while (s->rn || s->hn)
		if (sorter_pop(s, err))
			return -1;
	return 0;
}
