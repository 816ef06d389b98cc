/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One student's verdicts: every case of every boot judged from what the
 * host controls (its case list, its control files, the output files it
 * compared, the console it captured) and from the result files the
 * guests wrote, read strictly; then the student's results.csv,
 * failures.csv and report.md (docs/grading.md).
 */
#ifndef GRADECLASS_STUDENT_H
#define GRADECLASS_STUDENT_H

#include "result.h"
#include "rubric.h"
#include "timeline.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_WORDS 16

/* The run, from STAGE/host.conf (written by scripts/grade/grade). */
struct run {
	const char *stage, *dir;
	char *name, *rubric_path, *kernel, *accel, *timeout, *spent, *problems;
	char *cli[2];		/* the master's and the slave's templates */
	char *vms[2], *data[MAX_WORDS], *methods[MAX_WORDS];
	size_t nvms, ndata, nmethods;
	struct rubric rubric;
	int strict_pages, fatal;
	char *fatal_why;
};

/* A data set's files, from STAGE/sizes/SET ("NAME SIZE" lines). */
struct dataset {
	uint64_t sizes[64];
	size_t n;
	uint64_t total;
};

/* A case's verdict. */
struct verdict {
	const char *vms, *set, *pair;
	char name[64];
	const char *result;		/* pass, fail, not-run */
	char *reason;
	const char *crit[NCRIT];	/* pass, fail, n/a, not-run */
	char *why[NCRIT];
	struct result res[2];		/* master, slave */
	struct timeline time[2];
	char want_sum[17], got_sum[17];
	struct dataset ds;
};

/* What the host knows of one boot. */
struct boot {
	const char *vms;
	char **kernel[2];	/* per case (0-based): first problem line, per side */
	size_t ncases, where;	/* where: 1-based case the guest stopped in, 0 */
	char *fate;		/* why the boot ended early, or NULL */
	char where_name[64];
};

/* The run described by stage/host.conf; -1 after a message. */
int run_load(struct run *r, const char *stage, const char *dir);
/* The boot's host facts (control files, console problems, fate). */
int boot_load(const struct run *r, const char *vms, struct boot *b);
void boot_free(struct boot *b);
/* The verdict of case k (1-based) of boot b. */
void verdict_make(const struct run *r, const struct boot *b, size_t k,
		  const char *set, const char *pair, struct verdict *v);
void verdict_free(struct verdict *v);
/* reason + "; " + more (into a new string; reason freed). */
char *join_reason(char *reason, const char *more);

/* gradeclass student STAGE DIR */
int student_main(int argc, char **argv);
/* The report.md of a student, from its verdicts. */
void student_report(FILE *f, const struct run *r, struct verdict *v, size_t n,
		    const char *score);

#endif
