// SPDX-License-Identifier: GPL-2.0
#include "attrib.h"
#include "slurp.h"
#include "text.h"
#include "util.h"

#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The console a host reads is capped; so is what it reads of one. */
#define CONSOLE_READ_MAX (64ull * 1024 * 1024)

static int parse_u64(const char *s, uint64_t *v)
{
	return parse_uint(s, 0, UINT64_MAX / 2, v);
}

/* One control line into c; lines out of order or malformed are skipped. */
static void control_line(char *line, size_t ncases, struct control *c)
{
	char *w[4];
	size_t n = 0;
	uint64_t k = 0, off = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " ", &save); t && n < 4; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	if (t || !n)
		return;
	if (!strcmp(w[0], "begin") && n == 3 && !parse_u64(w[1], &k) &&
	    !parse_u64(w[2], &off) && k > c->last_begun && k <= ncases &&
	    c->nbegin < sizeof(c->off) / sizeof(c->off[0]) &&
	    (!c->nbegin || off >= c->off[c->nbegin - 1])) {
		c->off[c->nbegin] = off;
		c->k[c->nbegin++] = (size_t)k;
		c->last_begun = (size_t)k;
	} else if (!strcmp(w[0], "end") && n == 3 && !parse_u64(w[1], &k) &&
		   k == c->last_begun && k) {
		c->last_ended = (size_t)k;
	} else if (!strcmp(w[0], "done") && n == 2) {
		c->done = 1;
	}
}

void control_load(const char *path, size_t ncases, struct control *c)
{
	char *text, *p, *nl;
	size_t len;

	memset(c, 0, sizeof(*c));
	text = slurp(path, 1024 * 1024, &len);
	if (!text)
		return;
	c->present = 1;
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		control_line(p, ncases, c);
	}
	free(text);
}

size_t control_case(const struct control *c, uint64_t x)
{
	size_t lo = 0, hi = c->nbegin;

	/* The last begin whose offset is <= x. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->off[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? c->k[lo - 1] : 1;
}

static int compile(const char *ere_path, regex_t *re)
{
	char *ere = slurp(ere_path, 65536, NULL);
	int rc;

	if (!ere) {
		msg("%s: cannot be read", ere_path);
		return -1;
	}
	ere[strcspn(ere, "\n")] = '\0';
	rc = regcomp(re, ere, REG_EXTENDED | REG_NOSUB);
	free(ere);
	if (rc)
		msg("%s: not an extended regular expression", ere_path);
	return rc ? -1 : 0;
}

/* The line without its "[  12.345678] " stamp, cleaned and cut. */
static char *problem_text(char *line)
{
	char *p = line;
	size_t n;

	if (*p == '[' && (p = strchr(p, ']')) && p[1] == ' ')
		p += 2;
	else
		p = line;
	p[utf8_prefix(p, 200)] = '\0';
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		p[--n] = '\0';
	return xstrdup(p);
}

int console_problems(const char *log, const struct control *c, const char *ere_path,
		     char **first, size_t ncases)
{
	uint64_t off = 0;
	regex_t re;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int fd;

	fd = open(log, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f || compile(ere_path, &re)) {
		if (f)
			fclose(f);
		else
			close(fd);
		return f ? -1 : 0;
	}
	while (off < CONSOLE_READ_MAX && (n = getline(&line, &cap, f)) > 0) {
		size_t k = control_case(c, off);

		off += (uint64_t)n;
		if (k < 1 || k > ncases || first[k - 1])
			continue;
		/* NULs and control characters are spaces: one line, all seen. */
		text_clean(line, (size_t)n);
		if (!regexec(&re, line, 0, NULL, 0))
			first[k - 1] = problem_text(line);
	}
	free(line);
	regfree(&re);
	fclose(f);
	return 0;
}
