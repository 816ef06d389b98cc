// SPDX-License-Identifier: GPL-2.0
#include "pingparse.h"

#include <stdlib.h>
#include <string.h>

int ping_reply_ms(const char *line, double *ms)
{
	const char *t = strstr(line, " time=");
	char *end;
	double v;

	if (!t || !strstr(line, "bytes from "))
		return -1;
	v = strtod(t + 6, &end);
	if (end == t + 6 || strncmp(end, " ms", 3) || !(v >= 0))
		return -1;
	*ms = v;
	return 0;
}
