/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Empty: idlelab-kcompat.h, forced in first, defines what it offers. */
