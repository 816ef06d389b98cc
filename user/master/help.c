// SPDX-License-Identifier: GPL-2.0
#include "help.h"
#include "device.h"
#include "cli/xfer_cli.h"

/* What master is and how it moves the bytes. */
static void usage_head(FILE *f)
{
	fprintf(f,
		"usage: master N file1 ... fileN fcntl|mmap [options]\n\n"
		"Wait for one slave on %s and send it the N files\n"
		"over one connection, each followed by its CRC32C.\n\n"
		"  fcntl             read() the files, write() to the device\n"
		"  mmap              mmap the files, memcpy into the mapped device\n"
		"                    buffer, SYNCDEV_IOC_SEND\n",
		dev_path(DEV_MASTER));
}

static void usage_options(FILE *f)
{
	xfer_cli_usage_common(f, ROLE_MASTER);
	fprintf(f,
		"  -h, --help         this text\n\n"
		"With --key, a slave that fails the key handshake is dropped and the\n"
		"master waits on.\n\n");
}

void master_usage(FILE *f)
{
	usage_head(f);
	usage_options(f);
	fprintf(f,
		"Without --key, anyone who can reach the port (another host, another\n"
		"local user) can take the place of the slave and fake its answer.\n\n"
		"Prints \"Transmission time: T ms, File size: S bytes\": S is the total\n"
		"of all files, T runs from the end of the handshake (the slave's\n"
		"hello and, with --key, the key proofs) to the slave's confirmation.\n"
		"Exit status: 0 only when the slave confirmed that every file\n"
		"arrived intact and is in place; 1 failure (the slave's reason is\n"
		"printed), 2 usage.\n");
}
