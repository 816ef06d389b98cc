// SPDX-License-Identifier: GPL-2.0
/*
 * osbench machine: the machine description of a measurement report
 * (processor, cycle time, caches, memory, disks, operating system), from
 * cpuid, sysfs, /proc and uname.  Figures the OS does not state (disk
 * RPM) are not guessed; the memory's speed comes from dmidecode when it
 * can run, else the line says why it is not known (memspeed.h).
 */
#include "memspeed.h"
#include "micro.h"
#include "sysinfo.h"
#include "timing.h"
#include "util.h"

#include <stdarg.h>
#include <string.h>

static void item(struct report *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void item(struct report *r, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	report_str(r, key);
	report_str(r, buf[0] ? buf : "unknown");
}

static void caches(struct report *r)
{
	struct cache_info ci[16];
	int i, n = sysinfo_caches(ci, 16);
	char key[32];

	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "L%d_%s", ci[i].level,
			 ci[i].type[0] == 'D' ? "data" :
			 ci[i].type[0] == 'I' ? "instruction" : "unified");
		item(r, key, "%llu bytes, %u-byte lines, %u-way, CPUs %s",
		     (unsigned long long)ci[i].size, ci[i].line, ci[i].ways,
		     ci[i].shared);
	}
}

static void disks(struct report *r)
{
	struct disk_info d;
	char key[48];
	int i;

	for (i = 0; sysinfo_disk(i, &d) == 0; i++) {
		snprintf(key, sizeof(key), "disk_%s", d.name);
		item(r, key, "%llu bytes, %s, model %s, scheduler %s",
		     (unsigned long long)d.size,
		     d.virtio ? "rotation unknown (a virtio disk: the "
		     "kernel's rotational flag is a default, the host's "
		     "medium is not visible)" :
		     d.rotational == 1 ? "rotational" :
		     d.rotational == 0 ? "non-rotational" : "rotation unknown",
		     d.model[0] ? d.model : "unknown",
		     d.scheduler[0] ? d.scheduler : "none");
	}
}

/*
 * The clock the kernel keeps time with.  It also tells which hypervisor
 * lies directly under the kernel where cpuid names an outer one: the
 * cpuid of the AMD EPYC Turin-like guest says bhyve, its clock is
 * kvm-clock (docs/io.md).
 */
static void clocksource(struct report *r)
{
	char buf[64];

	sysinfo_clocksource(buf, sizeof(buf));
	if (!buf[0])
		return;
	item(r, "clocksource", "%s%s", buf,
	     strcmp(buf, "kvm-clock") ? "" :
	     " (a KVM-based hypervisor's clock)");
}

/* The product, and the signature it was known by where they differ. */
static void hypervisor(struct report *r)
{
	char signature[32], name[32];

	sysinfo_hypervisor_signature(signature, sizeof(signature));
	if (!signature[0]) {
		item(r, "hypervisor", "none (bare metal)");
		return;
	}
	sysinfo_hypervisor_name(signature, name, sizeof(name));
	if (strcmp(name, signature))
		item(r, "hypervisor", "%s (cpuid signature \"%s\")", name,
		     signature);
	else
		item(r, "hypervisor", "%s", name);
}

static const char usage[] =
	"usage: osbench machine [--csv|--json]\n\n"
	"Describe this machine: CPU model, vendor, cycle time, hypervisor and\n"
	"clock source, caches, RAM, disks, kernel and distribution.\n";

static int machine_run(const struct ctx *c, const void *opts)
{
	struct report *r;
	char buf[256];
	double mhz = sysinfo_cpu_mhz(), tsc = tsc_ghz();
	double tsc_cpuid = sysinfo_tsc_hz_cpuid();
	(void)opts;
	r = report_new("machine", c->o.fmt, c->out);
	report_column(r, "item", NULL);
	report_column(r, "value", NULL);
	sysinfo_cpu_model(buf, sizeof(buf));
	item(r, "cpu_model", "%s", buf);
	sysinfo_cpu_vendor(buf, sizeof(buf));
	item(r, "cpu_vendor", "%s", buf);
	item(r, "cpus", "%d online", sysinfo_cpus());
	item(r, "tsc_frequency", "%.4g GHz measured%s", tsc,
	     tsc_cpuid > 0 ? "" : " (cpuid does not state it)");
	if (tsc_cpuid > 0)
		item(r, "tsc_frequency_cpuid", "%.4g GHz", tsc_cpuid / 1e9);
	item(r, "cycle_time", "%.3g ns (at the TSC frequency)", 1 / tsc);
	if (mhz > 0)
		item(r, "cpu_max_mhz", "%.0f MHz", mhz);
	hypervisor(r);
	clocksource(r);
	caches(r);
	item(r, "ram", "%llu bytes", (unsigned long long)sysinfo_ram());
	memspeed_describe(buf, sizeof(buf));
	item(r, "memory_speed", "%s", buf);
	disks(r);
	sysinfo_kernel(buf, sizeof(buf));
	item(r, "kernel", "%s", buf);
	sysinfo_os(buf, sizeof(buf));
	item(r, "os", "%s", buf);
	return report_end(r) ? EXIT_FAIL : EXIT_OK;
}

OSBENCH_COMMAND(machine, "machine", CMD_TABLE | CMD_ALL,
		"describe this machine (CPU, caches, RAM, disks, OS)");
