// SPDX-License-Identifier: GPL-2.0
#include "memspeed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const dmidecode_paths[] = {
	"/usr/sbin/dmidecode", "/sbin/dmidecode", "/usr/bin/dmidecode",
};

unsigned memspeed_parse_line(const char *line)
{
	const char *p = line + strspn(line, " \t");
	unsigned long v;
	char *end;

	if (strncmp(p, "Configured Memory Speed:", 24) &&
	    strncmp(p, "Configured Clock Speed:", 23) &&
	    strncmp(p, "Speed:", 6))
		return 0;
	p = strchr(p, ':') + 1;
	v = strtoul(p, &end, 10);
	if (end == p || (strncmp(end, " MT/s", 5) && strncmp(end, " MHz", 4)))
		return 0;
	return (unsigned)v;
}

/* The largest speed dmidecode states, 0 if none; -1 if it cannot run. */
static long run_dmidecode(const char *path)
{
	char cmd[64], line[256];
	unsigned best = 0, v;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s -t 17 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		v = memspeed_parse_line(line);
		if (v > best)
			best = v;
	}
	return pclose(p) == 0 ? (long)best : -1;
}

unsigned memspeed_describe(char *buf, size_t len)
{
	const char *path = NULL;
	size_t i;
	long v;

	for (i = 0; i < sizeof(dmidecode_paths) / sizeof(*dmidecode_paths);
	     i++)
		if (access(dmidecode_paths[i], X_OK) == 0)
			path = dmidecode_paths[i];
	if (!path) {
		snprintf(buf, len, "not known: dmidecode, which reads it from "
			 "the firmware's tables, is not installed");
		return 0;
	}
	if (geteuid() != 0) {
		snprintf(buf, len, "not known: %s -t 17 needs root", path);
		return 0;
	}
	v = run_dmidecode(path);
	if (v > 0)
		snprintf(buf, len, "%ld MT/s (dmidecode -t 17)", v);
	else if (v == 0)
		snprintf(buf, len, "not known: the firmware's tables state no "
			 "memory speed (dmidecode -t 17; usual in a VM)");
	else
		snprintf(buf, len, "not known: %s -t 17 failed", path);
	return v > 0 ? (unsigned)v : 0;
}
