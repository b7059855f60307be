// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: trace-cmd report text import
 * (traces/import/import-text.c, text-*.c).
 */
#include "config.h"

#include "fuzz-import.h"
