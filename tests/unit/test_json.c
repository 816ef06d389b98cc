// SPDX-License-Identifier: GPL-2.0
/* user/common/json.c: what the programs write, read back the same. */
#include "check.h"
#include "json.h"

#include <stdlib.h>
#include <string.h>

/* What fn(f, s) writes, in a new string. */
static char *written(void (*fn)(FILE *, const char *), const char *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	if (!f)
		abort();
	fn(f, s);
	fclose(f);
	return out;
}

/* fn(f, s) writes want. */
static int writes(void (*fn)(FILE *, const char *), const char *s,
		  const char *want)
{
	char *got = written(fn, s);
	int ok = !strcmp(got, want);

	if (!ok)
		printf("# wrote %s, want %s\n", got, want);
	free(got);
	return ok;
}

static void test_strings(void)
{
	static const char nasty[] = "q\" b\\ nl\n tab\t bell\x07 del\x7f \xc3\xa9";
	char *doc = written(json_put_string, nasty), *back = NULL;
	const char *end = json_get_string(doc, &back);

	CHECK(writes(json_put_string, nasty,
		     "\"q\\\" b\\\\ nl\\u000a tab\\u0009 bell\\u0007 del\\u007f \xc3\xa9\""),
	      "json_put_string: quote, backslash and control characters escaped, UTF-8 as it is");
	CHECK(end && !*end && back && !strcmp(back, nasty),
	      "json_get_string: reads back what json_put_string wrote");
	free(back);
	free(doc);
	back = NULL;
	CHECK(!json_get_string("\"no end", &back) && !back &&
	      !json_get_string("bare", &back) && !back,
	      "json_get_string: an unterminated string or none: NULL, nothing allocated");
	CHECK(writes(json_put_string_or_null, "", "null") &&
	      writes(json_put_string_or_null, NULL, "null") &&
	      writes(json_put_string_or_null, "x", "\"x\""),
	      "json_put_string_or_null: empty and NULL as null");
}

static void test_numbers(void)
{
	CHECK(writes(json_put_number_or_null, "42", "42") &&
	      writes(json_put_number_or_null, "-0.25", "-0.25") &&
	      writes(json_put_number_or_null, "1.5e-05", "1.5e-05") &&
	      writes(json_put_number_or_null, "0", "0") &&
	      writes(json_put_number_or_null, "0.5", "0.5"),
	      "json_put_number_or_null: numbers as they are");
	CHECK(writes(json_put_number_or_null, "", "null") &&
	      writes(json_put_number_or_null, NULL, "null") &&
	      writes(json_put_number_or_null, "07", "null") &&
	      writes(json_put_number_or_null, "-012", "null") &&
	      writes(json_put_number_or_null, "n/a", "null") &&
	      writes(json_put_number_or_null, "1,5", "null") &&
	      writes(json_put_number_or_null, "+1", "null"),
	      "json_put_number_or_null: empty, leading zeros and text as null");
}

static void test_version(void)
{
	CHECK(json_format_version("{\"format_version\":1,\"students\":[]}") == 1 &&
	      json_format_version("\n{ \"format_version\" : 12 }") == 12,
	      "json_format_version: the version a document opens with");
	CHECK(json_format_version("{\"students\":[],\"format_version\":1}") == -1 &&
	      json_format_version("{\"format_version\":-1}") == -1 &&
	      json_format_version("{\"format_version\":1x}") == -1 &&
	      json_format_version("[1]") == -1,
	      "json_format_version: not first, negative, not a number: -1");
}

int main(void)
{
	test_strings();
	test_numbers();
	test_version();
	return check_done();
}
