// SPDX-License-Identifier: GPL-2.0
#include "help.h"
#include "auth.h"
#include "deadline.h"
#include "device.h"
#include "xfer_cli.h"

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
	xfer_cli_usage_common(f, DEV_MASTER);
	fprintf(f,
		"      --key FILE     keyed transfer: both sides prove they hold the\n"
		"                     secret in FILE (%d to %d bytes, yours, mode 0600;\n"
		"                     make one with: umask 077; head -c 32 /dev/urandom\n"
		"                     >FILE) before any data; a peer that fails is dropped and\n"
		"                     the master waits on\n"
		"      --peer ADDR    accept a slave from IPv4 address ADDR only\n"
		"      --handshake-timeout MS\n"
		"                     the slave's hello and, with --key, the key proofs\n"
		"                     must all be done within MS milliseconds of the\n"
		"                     connection (default $SYNCDEV_HANDSHAKE_MS, else\n"
		"                     %u)\n"
		"  -h, --help         this text\n\n",
		AUTH_KEY_MIN, AUTH_KEY_MAX - 1, DEADLINE_HANDSHAKE_MS);
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
