/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "a.b.c.d[:port]": the only address syntax the programs accept.  No host
 * names (the kernel side cannot resolve them either), no IPv6.
 */
#ifndef SYNCDEV_NETADDR_H
#define SYNCDEV_NETADDR_H

#include <netinet/in.h>
#include <stdint.h>

/*
 * Parse s into *addr (network byte order) and *port (host byte order;
 * default_port when s has no ":port").  Returns 0, or -1 after a msg()
 * that names the problem.
 */
int parse_ipv4_port(const char *s, uint16_t default_port,
		    struct in_addr *addr, uint16_t *port);

/* "a.b.c.d:port" into buf (at least 22 bytes), for messages. */
const char *format_ipv4_port(char *buf, struct in_addr addr, uint16_t port);

#endif
