// SPDX-License-Identifier: GPL-2.0
#include "help.h"
#include "device.h"
#include "cli/xfer_cli.h"

/* What slave is and how it moves the bytes. */
static void usage_head(FILE *f)
{
	fprintf(f,
		"usage: slave N file1 ... fileN fcntl|mmap a.b.c.d[:port] [options]\n\n"
		"Connect %s to the master at a.b.c.d (port: the\n"
		"module's, %u by default) and receive N files into file1..fileN.\n"
		"Each file appears under its name only once its CRC32C verified.\n\n"
		"  fcntl             read() from the device, write() the files\n"
		"  mmap              SYNCDEV_IOC_RECV into the mapped device buffer,\n"
		"                    memcpy into the mmapped files\n",
		dev_path(DEV_SLAVE), dev_default_port());
}

static void usage_options(FILE *f)
{
	xfer_cli_usage_common(f, ROLE_SLAVE);
	fprintf(f,
		"  -h, --help         this text\n\n"
		"With --key, a master that fails the key handshake ends the slave\n"
		"with exit 4, nothing written; a handshake not done within\n"
		"--handshake-timeout ends it with exit 1, or 4 keyed.\n\n");
}

void slave_usage(FILE *f)
{
	usage_head(f);
	usage_options(f);
	fprintf(f,
		"Without --key, anyone who can reach the port (another host, another\n"
		"local user) can take the place of the master and feed this slave\n"
		"any content.\n\n"
		"After the last file (after a failure: the files verified before it),\n"
		"before the master is told, the data of all the files is flushed to\n"
		"the disk at once (syncfs, once per file system; on FUSE, 9p and\n"
		"SMB, whose syncfs does not reach the storage, each file is fsync'ed\n"
		"at its close instead), then the files are renamed into place, then\n"
		"each of their directories is fsync'ed once.  On ext4 with a journal,\n"
		"where every file is new, the data is written out without a flush\n"
		"(sync_file_range) and the directories' fsync commits it with the\n"
		"names, one journal commit.\n"
		"--no-sync leaves out the flushes, not the renames.\n");
	fprintf(f,
		"Prints \"Transmission time: T ms, File size: S bytes\": S is the total\n"
		"of all files, T runs from the end of the handshake (the hello and,\n"
		"with --key, the key proofs) to the last file in place.\n"
		"Then tells the master the outcome.\n"
		"Exit status: 0 every file verified and in place, and the master told;\n"
		"1 failure, 2 usage (e.g. the same output twice), 3 corrupt data (bad\n"
		"framing, CRC or MAC mismatch), 4 no key handshake (the master failed\n"
		"it, or runs with --key and this slave without).\n");
}
