// SPDX-License-Identifier: GPL-2.0
#include "help.h"
#include "auth.h"
#include "deadline.h"
#include "device.h"
#include "xfer_cli.h"

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
	xfer_cli_usage_common(f, DEV_SLAVE);
	fprintf(f,
		"      --key FILE     keyed transfer: both sides prove they hold the\n"
		"                     secret in FILE (%d to %d bytes, yours, mode 0600;\n"
		"                     make one with: umask 077; head -c 32 /dev/urandom\n"
		"                     >FILE) before any data; a master that fails it ends the\n"
		"                     slave with exit 4, nothing written\n"
		"      --peer ADDR    connect to IPv4 address ADDR only\n"
		"      --handshake-timeout MS\n"
		"                     the slave's hello and, with --key, the key proofs\n"
		"                     must all be done within MS milliseconds of the\n"
		"                     connection (default $SYNCDEV_HANDSHAKE_MS, else\n"
		"                     %u): else exit 1, or 4 keyed\n",
		AUTH_KEY_MIN, AUTH_KEY_MAX - 1, DEADLINE_HANDSHAKE_MS);
	fprintf(f,
		"      --no-sync      confirm files without flushing them to the disk\n"
		"                     (for benchmarks): a crash of this machine after\n"
		"                     the master's exit 0 may lose or empty them\n"
		"  -t, --timeout MS   connect timeout (default: the module's)\n"
		"  -w, --wait MS      retry a refused connection (no master yet)\n"
		"                     for up to MS milliseconds (default %u;\n"
		"                     0: fail at once)\n"
		"  -h, --help         this text\n\n",
		XFER_DEFAULT_WAIT_MS);
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
