/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Retrying a connection that was refused because the other side is not
 * listening yet, so that the receiving program may be started first (and
 * scripts need no sleep between starting the two ends).
 */
#ifndef SYNCDEV_RETRY_H
#define SYNCDEV_RETRY_H

#include <stdint.h>

/*
 * Call try(arg) until it returns 0, fails with an errno other than
 * ECONNREFUSED, or wait_ms have passed; every 100 ms.  Returns the last
 * result of try(), errno kept.
 */
int retry_refused(int (*try)(void *arg), void *arg, uint32_t wait_ms);

#endif
