// SPDX-License-Identifier: GPL-2.0
#include "netaddr.h"
#include "util.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

int parse_ipv4_port(const char *s, uint16_t default_port,
		    struct in_addr *addr, uint16_t *port)
{
	char host[INET_ADDRSTRLEN];
	struct in_addr a;
	const char *colon = strchr(s, ':');
	size_t hlen = colon ? (size_t)(colon - s) : strlen(s);
	uint64_t p = default_port;

	if (hlen == 0 || hlen >= sizeof(host)) {
		msg("bad address '%s': expected a.b.c.d[:port]", s);
		return -1;
	}
	memcpy(host, s, hlen);
	host[hlen] = '\0';
	/* inet_pton, unlike inet_aton, rejects "1.2.3", "0x7f.0.0.1", "01.2.3.4". */
	if (inet_pton(AF_INET, host, &a) != 1) {
		msg("bad address '%s': '%s' is not an IPv4 address a.b.c.d (no host names)",
		    s, host);
		return -1;
	}
	if (colon && parse_uint(colon + 1, 1, 65535, &p)) {
		msg("bad address '%s': port '%s' is not a number 1..65535",
		    s, colon + 1);
		return -1;
	}
	*addr = a;
	*port = (uint16_t)p;
	return 0;
}

const char *format_ipv4_port(char *buf, struct in_addr addr, uint16_t port)
{
	char host[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &addr, host, sizeof(host));
	sprintf(buf, "%s:%u", host, port);
	return buf;
}
