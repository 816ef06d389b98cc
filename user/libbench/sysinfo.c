// SPDX-License-Identifier: GPL-2.0
#include "sysinfo.h"
#include "report.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

int sysinfo_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	buf[0] = 0;
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok ? 0 : -1;
}

/* cpuid's strings are padded with spaces, at either end. */
static void trim(char *s)
{
	size_t lead = strspn(s, " "), n = strlen(s + lead);

	memmove(s, s + lead, n + 1);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
}

static unsigned read_uint(const char *path)
{
	char buf[64];

	if (sysinfo_read(path, buf, sizeof(buf)))
		return 0;
	return (unsigned)strtoul(buf, NULL, 10);
}

int sysinfo_caches(struct cache_info *out, int max)
{
	const char *base = "/sys/devices/system/cpu/cpu0/cache";
	char path[256], buf[64];
	int i, n = 0;
	uint64_t size;

	for (i = 0; n < max; i++) {
		struct cache_info *c = &out[n];

		snprintf(path, sizeof(path), "%s/index%d/level", base, i);
		if (sysinfo_read(path, buf, sizeof(buf)))
			break;
		c->level = atoi(buf);
		snprintf(path, sizeof(path), "%s/index%d/type", base, i);
		sysinfo_read(path, c->type, sizeof(c->type));
		snprintf(path, sizeof(path), "%s/index%d/size", base, i);
		sysinfo_read(path, buf, sizeof(buf));
		c->size = parse_size(buf, &size) ? 0 : size;
		snprintf(path, sizeof(path),
			 "%s/index%d/coherency_line_size", base, i);
		c->line = read_uint(path);
		snprintf(path, sizeof(path),
			 "%s/index%d/ways_of_associativity", base, i);
		c->ways = read_uint(path);
		snprintf(path, sizeof(path), "%s/index%d/shared_cpu_list",
			 base, i);
		sysinfo_read(path, c->shared, sizeof(c->shared));
		n++;
	}
	return n ? n : sysinfo_caches_cpuid(out, max);
}

uint64_t sysinfo_cache_size(int level)
{
	struct cache_info c[16];
	uint64_t best = 0;
	int i, n = sysinfo_caches(c, 16);

	for (i = 0; i < n; i++) {
		if (!strcmp(c[i].type, "Instruction"))
			continue;
		if ((level == 0 || c[i].level == level) && c[i].size > best)
			best = c[i].size;
	}
	return best;
}

/* Value of the first "key : value" line of /proc/cpuinfo with this key. */
static int cpuinfo_field(const char *key, char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	size_t klen = strlen(key);
	int ret = -1;

	buf[0] = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' &&
		     line[klen] != ':'))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = 0;
		snprintf(buf, len, "%s", colon);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

void sysinfo_cpu_model(char *buf, size_t len)
{
#if HAVE_CPUID
	unsigned int r[12], a, b, c, d, i;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
		for (i = 0; i < 3; i++)
			__get_cpuid(0x80000002 + i, &r[4 * i], &r[4 * i + 1],
				    &r[4 * i + 2], &r[4 * i + 3]);
		snprintf(buf, len, "%.48s", (const char *)r);
		trim(buf);
		if (buf[0])
			return;
	}
#endif
	if (cpuinfo_field("model name", buf, len))
		snprintf(buf, len, "unknown");
}

void sysinfo_cpu_vendor(char *buf, size_t len)
{
#if HAVE_CPUID
	unsigned int a, r[3];

	if (__get_cpuid(0, &a, &r[0], &r[2], &r[1])) {
		snprintf(buf, len, "%.12s", (const char *)r);
		return;
	}
#endif
	if (cpuinfo_field("vendor_id", buf, len))
		snprintf(buf, len, "unknown");
}

void sysinfo_hypervisor_signature(char *buf, size_t len)
{
	buf[0] = 0;
#if HAVE_CPUID
	unsigned int a, b, c, d, r[3];

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, r[0], r[1], r[2]);
	snprintf(buf, len, "%.12s", (const char *)r);
	trim(buf);
	if (!buf[0])
		snprintf(buf, len, "unknown hypervisor");
#else
	(void)len;
#endif
}

/* Signatures as the hypervisors' sources and the kernel's drivers spell them. */
static const struct {
	const char *signature, *name;
} hypervisors[] = {
	{ "KVMKVMKVM", "KVM" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "Microsoft Hv", "Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "bhyve bhyve", "bhyve" },
	{ "VBoxVBoxVBox", "VirtualBox" },
	{ "lrpepyh  vr", "Parallels" },
	{ "ACRNACRNACRN", "ACRN" },
	{ "Jailhouse", "Jailhouse" },
	{ "QNXQVMBSQG", "QNX" },
};

void sysinfo_hypervisor_name(const char *signature, char *buf, size_t len)
{
	char sig[32];
	size_t i;

	snprintf(sig, sizeof(sig), "%s", signature);
	trim(sig);
	for (i = 0; i < sizeof(hypervisors) / sizeof(hypervisors[0]); i++)
		if (!strcmp(sig, hypervisors[i].signature)) {
			snprintf(buf, len, "%s", hypervisors[i].name);
			return;
		}
	snprintf(buf, len, "%s", sig);
}

void sysinfo_hypervisor(char *buf, size_t len)
{
	char signature[32];

	sysinfo_hypervisor_signature(signature, sizeof(signature));
	sysinfo_hypervisor_name(signature, buf, len);
}

void sysinfo_clocksource(char *buf, size_t len)
{
	sysinfo_read("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		     buf, len);
}

void sysinfo_note(struct report *r)
{
	char model[64], hv[32], clock[32], kernel[200];

	sysinfo_cpu_model(model, sizeof(model));
	sysinfo_hypervisor(hv, sizeof(hv));
	sysinfo_clocksource(clock, sizeof(clock));
	sysinfo_kernel(kernel, sizeof(kernel));
	report_note(r, SYSINFO_NOTE,
		    "%s, %d CPUs online, %s%s, clock source %s, %.1f GiB RAM, %s",
		    model, sysinfo_cpus(), hv[0] ? "hypervisor " : "bare metal",
		    hv, clock[0] ? clock : "unknown",
		    (double)sysinfo_ram() / (1u << 30), kernel);
}

double sysinfo_cpu_mhz(void)
{
	char buf[64];
	unsigned khz = read_uint(
		"/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");

	if (khz)
		return khz / 1000.0;
	if (cpuinfo_field("cpu MHz", buf, sizeof(buf)) == 0)
		return strtod(buf, NULL);
	return 0;
}

double sysinfo_tsc_hz_cpuid(void)
{
#if HAVE_CPUID
	unsigned int a, b, c, d;

	if (__get_cpuid_max(0, NULL) >= 0x15) {
		__cpuid(0x15, a, b, c, d);
		if (a && b && c)
			return (double)c * b / a;
	}
	if (__get_cpuid_max(0, NULL) >= 0x16) {
		__cpuid(0x16, a, b, c, d);
		if (a & 0xffff)
			return (a & 0xffff) * 1e6;
	}
#endif
	return 0;
}

int sysinfo_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

uint64_t sysinfo_ram(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	return pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
}

void sysinfo_kernel(char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s %s %s", u.sysname, u.release,
			 u.machine);
}

void sysinfo_os(char *buf, size_t len)
{
	FILE *f = fopen("/etc/os-release", "r");
	char line[256];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, "PRETTY_NAME=", 12))
			continue;
		v = line + 12;
		v[strcspn(v, "\n")] = 0;
		if (*v == '"') {
			v++;
			v[strcspn(v, "\"")] = 0;
		}
		snprintf(buf, len, "%s", v);
		break;
	}
	fclose(f);
}

static int is_disk(const char *name)
{
	return name[0] != '.' && strncmp(name, "loop", 4) &&
	       strncmp(name, "ram", 3) && strncmp(name, "zram", 4);
}

int sysinfo_disk(int i, struct disk_info *d)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	char path[512], buf[64];
	int found = -1;
	size_t n;

	if (!dir)
		return -1;
	while ((e = readdir(dir))) {
		if (!is_disk(e->d_name) || i-- > 0)
			continue;
		snprintf(d->name, sizeof(d->name), "%.31s", e->d_name);
		found = 0;
		break;
	}
	closedir(dir);
	if (found)
		return -1;
	snprintf(path, sizeof(path), "/sys/block/%s/device/model", d->name);
	sysinfo_read(path, d->model, sizeof(d->model));
	/* Device models are padded with trailing blanks. */
	for (n = strlen(d->model); n && d->model[n - 1] == ' '; n--)
		d->model[n - 1] = 0;
	snprintf(path, sizeof(path), "/sys/block/%s/size", d->name);
	d->size = sysinfo_read(path, buf, sizeof(buf)) ? 0 :
		  strtoull(buf, NULL, 10) * 512;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/rotational",
		 d->name);
	d->rotational = sysinfo_read(path, buf, sizeof(buf)) ? -1 : atoi(buf);
	d->virtio = !strncmp(d->name, "vd", 2);
	if (d->virtio)
		d->rotational = -1;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", d->name);
	sysinfo_read(path, d->scheduler, sizeof(d->scheduler));
	return 0;
}

/* dir is path itself or one of its ancestors ("/" is everyone's). */
static size_t mount_prefix(const char *dir, const char *path)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	if (strncmp(dir, path, n) || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

void sysinfo_fstype(const char *path, char *buf, size_t len)
{
	char real[PATH_MAX];
	struct mntent *m;
	size_t best = 0, n;
	FILE *f;

	buf[0] = '\0';
	if (!realpath(path, real))
		return;
	f = setmntent("/proc/self/mounts", "r");
	if (!f)
		return;
	/* ">=": a later mount on the same point hides the earlier ones. */
	while ((m = getmntent(f))) {
		n = mount_prefix(m->mnt_dir, real);
		if (n && n >= best) {
			best = n;
			snprintf(buf, len, "%s", m->mnt_type);
		}
	}
	endmntent(f);
}
