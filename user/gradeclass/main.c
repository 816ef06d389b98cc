// SPDX-License-Identifier: GPL-2.0
/*
 * gradeclass: the class-level part of scripts/grade/grade: the class's
 * summaries and reports, the merge of shards, the checks of a rubric and
 * of two batches' options.
 */
#include "class.h"
#include "names.h"
#include "share.h"
#include "student.h"
#include "verify.h"
#include "util.h"
#include "watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reserved names, indented under check-name, wrapped. */
static void usage_reserved(FILE *f)
{
	size_t i, col = 0;

	for (i = 0; class_reserved[i]; i++) {
		size_t n = strlen(class_reserved[i]) + (class_reserved[i + 1] ? 1 : 0);

		if (col && col + 1 + n > 52) {
			fputc('\n', f);
			col = 0;
		}
		fputs(col ? " " : "                  ", f);
		fprintf(f, "%s%s", class_reserved[i], class_reserved[i + 1] ? "," : "");
		col += n + 1;
	}
	fputc('\n', f);
}

static void usage_status(FILE *f)
{
	fputs("  -h, --help      this text\n\n"
	      "Student names, reasons and messages are escaped in report.html\n"
	      "and report.md, their control characters removed everywhere.\n\n", f);
	fputs("Exit status: 0 every case of every student passed (summarize,\n"
	      "score, merge), nothing differs (diff), the rubric is good\n"
	      "(rubric); 1 a case failed (summarize, score, merge), something\n"
	      "differs (diff); 2 bad input or command line, said on stderr.\n"
	      "share-read and share-copy: 0 the whole file copied; 1 refused\n"
	      "(missing, a link, not a regular file, a bad PATH) or an I/O\n"
	      "error, said on stderr; 2 bad command line; 3 the file held more\n"
	      "than BYTES: its first BYTES bytes were copied.  check-name: 0\n"
	      "the name is good; 1 refused, the reason on stderr; 2 bad\n"
	      "command line.\n", f);
}

static void usage_share(FILE *f)
{
	fputs("  share-read [--max BYTES] ROOT PATH\n"
	      "                  the bytes of ROOT/PATH, a file a guest wrote into\n"
	      "                  its share, on stdout: PATH relative, without '.',\n"
	      "                  '..' or empty components; no link followed at any\n"
	      "                  component; only a regular file, opened without\n"
	      "                  blocking; at most BYTES bytes (default 1M)\n"
	      "  share-copy [--max BYTES] ROOT PATH DEST\n"
	      "                  the same into DEST, a file it creates (mode 0644;\n"
	      "                  an existing DEST or a link there is refused)\n", f);
}

static void usage_student(FILE *f)
{
	fputs("  student STAGE DIR\n"
	      "                  one student's verdicts: every case of STAGE/host.conf\n"
	      "                  judged from the stage's result files (read strictly),\n"
	      "                  control files, console logs and output checks; writes\n"
	      "                  DIR/results.csv, failures.csv, report.md and\n"
	      "                  STAGE/counts, STAGE/first\n"
	      "  verify-outputs SHARE DIR WANT DATA SUM\n"
	      "                  the slave's output files SHARE/DIR/NAME (no link\n"
	      "                  followed) against WANT's \"NAME SIZE SHA256\" lines:\n"
	      "                  \"pass\" or what is missing or wrong on stdout; SUM gets\n"
	      "                  the inputs' and outputs' short checksums\n", f);
}

static void usage_watch(FILE *f)
{
	fputs("  watch --stage STAGE --vms VMS --control-dir DIR --guest BASE...\n"
	      "        --files F1,F2,... --stall S --boot S [--qemu-user UID:GID]\n"
	      "        [--quiet] -- CMD...\n"
	      "                  run the boot CMD; keep each guest's control events\n"
	      "                  (DIR/BASE.sock) in STAGE/BASE.control; TERM CMD\n"
	      "                  when no case began within S (--boot) or a case\n"
	      "                  made no progress for S (--stall) seconds, saying\n"
	      "                  why in STAGE/stalled.VMS; exits with CMD's status\n"
	      "                  (docs/grading-trust.md); only QEMU of CMD, running\n"
	      "                  as UID:GID (default: the caller), may connect\n", f);
}

static void usage_rubric(FILE *f)
{
	fputs("  rubric FILE     check a rubric file: 'CRITERION WEIGHT\n"
	      "                  required|optional' lines, 'strict_time_line\n"
	      "                  yes|no', 'legacy_send_result bytes|zero',\n"
	      "                  'legacy_read fill|starter'; with\n"
	      "                  --strict-time-line print 1 (yes) or 0 (no, the\n"
	      "                  default), with --legacy-send-result bytes (the\n"
	      "                  default) or zero, with --legacy-read fill (the\n"
	      "                  default) or starter\n", f);
}

static void usage(FILE *f)
{
	fputs("usage: gradeclass summarize OUT\n"
	      "       gradeclass summarize --single OUT\n"
	      "       gradeclass score RUBRIC RESULTS\n"
	      "       gradeclass diff A B\n"
	      "       gradeclass merge --out OUT DIR...\n"
	      "       gradeclass rubric [--strict-time-line|--legacy-send-result|\n"
	      "                          --legacy-read] FILE\n"
	      "       gradeclass share-read [--max BYTES] ROOT PATH\n"
	      "       gradeclass share-copy [--max BYTES] ROOT PATH DEST\n"
	      "       gradeclass check-name NAME\n"
	      "       gradeclass student STAGE DIR\n"
	      "       gradeclass verify-outputs SHARE DIR WANT DATA SUM\n"
	      "       gradeclass watch OPTIONS -- CMD...\n\n"
	      "The class-level part of scripts/grade/grade (docs/grading.md).\n\n"
	      "  summarize OUT   OUT/students lists the students; each OUT/NAME/\n"
	      "                  holds results.csv, failures.csv, times.csv (the\n"
	      "                  time columns) and \"done\" once graded; writes\n"
	      "                  OUT/summary.csv (and as JSON, summary.json),\n"
	      "                  results.csv, failures.csv, cases.csv, report.md\n"
	      "                  and report.html, weighed by the rubric OUT/rubric\n"
	      "  summarize --single OUT\n"
	      "                  one student graded into OUT itself: OUT/summary.csv\n"
	      "                  and summary.json from OUT/results.csv and\n"
	      "                  times.csv; prints the score\n"
	      "  score RUBRIC RESULTS\n"
	      "                  the weighted score in percent of the cases of a\n"
	      "                  results.csv\n"
	      "  diff A B        what differs between two grade.options files, a\n"
	      "                  line each (the shard and the rubric's path are not\n"
	      "                  compared; the accelerator is)\n"
	      "  merge --out OUT DIR...\n"
	      "                  the shards' outputs into one summary in OUT (each\n"
	      "                  student's directory without its shared \"work\");\n"
	      "                  refuses, naming what differs, shards graded with\n"
	      "                  other options, grader, kernel or module, a shard\n"
	      "                  given twice, a missing one and one whose\n"
	      "                  summary.json has another format_version; shards\n"
	      "                  under other accelerators merge, the reports\n"
	      "                  naming each one's\n", f);
	usage_rubric(f);
	usage_share(f);
	fputs("  check-name NAME whether NAME can be a student's folder: not empty,\n"
	      "                  '.' or '..', at most 100 bytes, no '/' or control\n"
	      "                  character (C0, DEL, C1), no leading '-', and none\n"
	      "                  of the class's\n"
	      "                  own names at the top of OUT (any case):\n", f);
	usage_reserved(f);
	usage_student(f);
	usage_watch(f);
	usage_status(f);
}

int diff_options(const char *a, const char *b)
{
	struct options oa, ob;
	char **lines;
	size_t i, n;

	if (options_read(a, &oa)) {
		msg("%s: %s", a, strerror(errno));
		return EXIT_USAGE;
	}
	if (options_read(b, &ob)) {
		msg("%s: %s", b, strerror(errno));
		return EXIT_USAGE;
	}
	/*
	 * accel is compared: --resume and --only grade into the OUT whose
	 * grade.options names one accelerator for every student, so a run
	 * under another would leave the class report naming the wrong one
	 * for some of them.  Shards are outputs of their own, each with its
	 * record: merge compares them without accel.
	 */
	n = options_diff(&oa, &ob, NULL, &lines);
	for (i = 0; i < n; i++) {
		puts(lines[i]);
		free(lines[i]);
	}
	free(lines);
	options_free(&oa);
	options_free(&ob);
	return n ? EXIT_FAIL : EXIT_OK;
}

int check_rubric(const char *path, int print)
{
	struct rubric r;

	if (rubric_read(path, &r))
		return EXIT_USAGE;
	if (print == 1)
		printf("%d\n", r.strict_time_line);
	if (print == 2)
		printf("%s\n", r.legacy_send_zero ? "zero" : "bytes");
	if (print == 3)
		printf("%s\n", r.legacy_read_starter ? "starter" : "fill");
	return EXIT_OK;
}

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (!strcmp(cmd, "summarize") && argc == 3)
		return summarize(argv[2]);
	if (!strcmp(cmd, "summarize") && argc == 4 &&
	    !strcmp(argv[2], "--single"))
		return summarize_single(argv[3]);
	if (!strcmp(cmd, "score") && argc == 4)
		return score(argv[2], argv[3]);
	if (!strcmp(cmd, "diff") && argc == 4)
		return diff_options(argv[2], argv[3]);
	if (!strcmp(cmd, "merge") && argc > 4 && !strcmp(argv[2], "--out"))
		return merge(argv[3], argv + 4, argc - 4);
	if (!strcmp(cmd, "rubric") && argc == 3)
		return check_rubric(argv[2], 0);
	if (!strcmp(cmd, "rubric") && argc == 4 &&
	    !strcmp(argv[2], "--strict-time-line"))
		return check_rubric(argv[3], 1);
	if (!strcmp(cmd, "rubric") && argc == 4 &&
	    !strcmp(argv[2], "--legacy-send-result"))
		return check_rubric(argv[3], 2);
	if (!strcmp(cmd, "rubric") && argc == 4 &&
	    !strcmp(argv[2], "--legacy-read"))
		return check_rubric(argv[3], 3);
	if (!strcmp(cmd, "student"))
		return student_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "verify-outputs"))
		return verify_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "check-name"))
		return check_name_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "share-read"))
		return share_read_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "share-copy"))
		return share_copy_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "watch"))
		return watch_main(argc - 1, argv + 1);
	usage(stderr);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	/* Its messages are the grader's: "grade: ..." as the TA sees them. */
	set_progname("grade");
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return EXIT_OK;
	}
	rc = run(argc, argv);
	if (fflush(stdout) || ferror(stdout)) {
		msg("standard output: %s", strerror(errno));
		return EXIT_USAGE;
	}
	return rc;
}
