/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The governors idlelab knows, one ops struct per governor file.  They are
 * weak so that the library links while a governor is still being written;
 * a missing one is simply not registered.
 */
#ifndef IDLELAB_REGISTRY_H
#define IDLELAB_REGISTRY_H

#include <idlelab/governor.h>

#define IDL_GOV_DECLARE(name) \
	extern const struct idl_governor_ops name __attribute__((weak))
IDL_GOV_DECLARE(idl_gov_menu);
IDL_GOV_DECLARE(idl_gov_teo);
IDL_GOV_DECLARE(idl_gov_ladder);
IDL_GOV_DECLARE(idl_gov_haltpoll);
IDL_GOV_DECLARE(idl_gov_oracle);
#undef IDL_GOV_DECLARE

#endif /* IDLELAB_REGISTRY_H */
