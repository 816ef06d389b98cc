/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bytes criterion's host check: the slave's output files of a case,
 * read from its guest's share without following a link (share.h), compared
 * byte for byte with the data the host made (the files of DATA, named in
 * STAGE/want/SET's "NAME SIZE SHA256" lines).
 */
#ifndef GRADECLASS_VERIFY_H
#define GRADECLASS_VERIFY_H

/*
 * gradeclass verify-outputs SHARE DIR WANT DATA SUM: "pass", or a line per
 * output file missing or wrong (the first three, then how many more), on
 * stdout; SUM gets "WANT_SUM GOT_SUM", the first 16 hex digits of SHA-256
 * of the inputs and of the outputs concatenated (GOT_SUM only when every
 * output is there).
 */
int verify_main(int argc, char **argv);

#endif
