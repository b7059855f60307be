/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef IDLELAB_DECIDE_H
#define IDLELAB_DECIDE_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Run the decision stream read from @fd through a fresh instance of the
 * governor @spec ("NAME[:param=value,...]"): answers on @out,
 * errors ("decide: line N: ...") and, with @explain, explanations on
 * standard error.  Returns an exit status (IDL_EXIT_*).
 */
int decide_stream(const char *spec, bool explain, int fd, FILE *out);

#endif /* IDLELAB_DECIDE_H */
