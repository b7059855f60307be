/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The governors' shared constants (drivers/cpuidle/governors/gov.h since
 * 6.8), for a governor file built without the gov.h of its own tree.
 */
#ifndef IDLELAB_KC_GOV_H
#define IDLELAB_KC_GOV_H

#define RESIDENCY_THRESHOLD_NS	(15 * NSEC_PER_USEC)
#define SAFE_TIMER_RANGE_NS	(2 * TICK_NSEC)

#endif
