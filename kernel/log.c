// SPDX-License-Identifier: GPL-2.0
/*
 * The session's log lines, at the bottom of the module's files: every
 * other file may call them, and they call none of the others.
 */
#include "internal.h"

void sess_info(const struct syncdev_session *s, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("%s#%u: %pV", syncdev_role_name(s), s->id, &vaf);
	va_end(args);
}

void sess_info_peer(struct syncdev_session *s, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (!__ratelimit(&s->log_rs))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("%s#%u: %pV", syncdev_role_name(s), s->id, &vaf);
	va_end(args);
}
