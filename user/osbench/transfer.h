/* SPDX-License-Identifier: GPL-2.0 */
/*
 * osbench transfer (make bench-transfer): master/slave in the four method
 * combinations against tcpcopy, the plain userspace TCP copy.
 */
#ifndef OSBENCH_TRANSFER_H
#define OSBENCH_TRANSFER_H

int transfer_main(int argc, char **argv);

#endif
