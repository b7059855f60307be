/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The governors idlelab knows, one ops struct per governor file.
 *
 * The registry must refer to each ops struct with a strong reference, or
 * the linker would not pull the governor's object out of libidlelab.a.
 * So governor.c only names the governors that are built: the build writes
 * governors/gov-list.h with one IDL_HAVE_GOV_NAME per governors/NAME.c in
 * libidlelab_a_SOURCES (see governors/Makefile.inc).
 */
#ifndef IDLELAB_REGISTRY_H
#define IDLELAB_REGISTRY_H

#include <idlelab/governor.h>

extern const struct idl_governor_ops idl_gov_menu;
extern const struct idl_governor_ops idl_gov_teo;
extern const struct idl_governor_ops idl_gov_ladder;
extern const struct idl_governor_ops idl_gov_haltpoll;
extern const struct idl_governor_ops idl_gov_oracle;

#endif /* IDLELAB_REGISTRY_H */
