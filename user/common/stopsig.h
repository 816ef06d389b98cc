/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SIGINT and SIGTERM as a request to stop, for servers that must end
 * cleanly (say what they served, exit 0): the handler only records the
 * signal, without SA_RESTART, so a blocking accept, read or write returns
 * EINTR and the server's loop looks at stop_signal_caught().
 */
#ifndef SYNCDEV_STOPSIG_H
#define SYNCDEV_STOPSIG_H

/* Install the handlers. */
void stop_signals_catch(void);

/* The signal that asked to stop, or 0. */
int stop_signal_caught(void);

#endif
