/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine says about itself: /proc, sysfs, uname and cpuid.
 * Every reader returns something printable; an unknown value is an empty
 * string or 0, never an error, because a description with a gap is still
 * useful (containers and VMs hide parts of sysfs).
 */
#ifndef SYNCDEV_SYSINFO_H
#define SYNCDEV_SYSINFO_H

#include <stddef.h>
#include <stdint.h>

struct cache_info {
	int level;		/* 1, 2, 3 */
	char type[16];		/* "Data", "Instruction", "Unified" */
	uint64_t size;		/* bytes */
	unsigned line;		/* coherency line size, bytes */
	unsigned ways;		/* associativity, 0 if unknown */
	char shared[64];	/* CPUs sharing it ("0-1") */
};

/* First line of a small file, without the newline; -1 if unreadable. */
int sysinfo_read(const char *path, char *buf, size_t len);

/*
 * CPU 0's caches as sysfs lists them, or as cpuid describes them when
 * sysfs has none (sysinfo_caches_cpuid); returns the count (<= max).
 */
int sysinfo_caches(struct cache_info *out, int max);
int sysinfo_caches_cpuid(struct cache_info *out, int max);
/* Size of the largest data or unified cache of the given level (0: any). */
uint64_t sysinfo_cache_size(int level);

void sysinfo_cpu_model(char *buf, size_t len);
void sysinfo_cpu_vendor(char *buf, size_t len);
/*
 * The hypervisor's cpuid signature (leaf 0x40000000: "KVMKVMKVM",
 * "bhyve bhyve "), trimmed; "" on bare metal.
 */
void sysinfo_hypervisor_signature(char *buf, size_t len);
/*
 * The product a signature names ("bhyve bhyve " is bhyve, "TCGTCGTCGTCG"
 * QEMU's TCG); a signature not in the table is its own name, trimmed.
 */
void sysinfo_hypervisor_name(const char *signature, char *buf, size_t len);
/* This machine's hypervisor by name, "" on bare metal. */
void sysinfo_hypervisor(char *buf, size_t len);
/*
 * The kernel's clock source ("tsc", "kvm-clock"), "" if sysfs hides it.
 * It names the hypervisor right under the kernel where cpuid names an
 * outer one (docs/io.md).
 */
void sysinfo_clocksource(char *buf, size_t len);
/*
 * A benchmark's first note, key SYSINFO_NOTE: one line of CPU model,
 * CPUs, hypervisor, clock source, RAM and kernel (osbench machine has
 * the rest), so that a figure copied out of its table still says where
 * it was measured.
 */
#define SYSINFO_NOTE "machine"
struct report;
void sysinfo_note(struct report *r);
/* Maximum core frequency in MHz from cpufreq or /proc/cpuinfo, 0 if unknown. */
double sysinfo_cpu_mhz(void);
/* TSC frequency in Hz from cpuid leaf 0x15 (or 0x16), 0 if not given. */
double sysinfo_tsc_hz_cpuid(void);
/* Online CPUs. */
int sysinfo_cpus(void);
/* Physical memory in bytes. */
uint64_t sysinfo_ram(void);
/* "Linux 6.1.0-18-amd64 x86_64" and the distribution's PRETTY_NAME. */
void sysinfo_kernel(char *buf, size_t len);
void sysinfo_os(char *buf, size_t len);

/*
 * Type of the file system that holds path ("ext4", "tmpfs", "nfs4"), from
 * the mount table: the mount point that is the longest prefix of path's
 * real path, the last one mounted when several are stacked.  "" if unknown.
 */
void sysinfo_fstype(const char *path, char *buf, size_t len);

/* One block device from /sys/block; iterate with sysinfo_disk(i, ...). */
struct disk_info {
	char name[32];
	char model[64];
	uint64_t size;		/* bytes */
	int rotational;		/* 1 spinning, 0 solid state, -1 unknown */
	int virtio;		/* a virtio disk: its kernel flag is a default,
				 * so rotational is -1 */
	char scheduler[64];
};
/* The i-th disk (loop and ram devices skipped); -1 past the last one. */
int sysinfo_disk(int i, struct disk_info *d);

#endif
