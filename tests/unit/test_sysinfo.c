// SPDX-License-Identifier: GPL-2.0
/* Unit tests of what libbench makes of the machine's own descriptions. */
#include "check.h"
#include "sysinfo.h"

#include <string.h>

static int named(const char *signature, const char *want)
{
	char buf[32];

	sysinfo_hypervisor_name(signature, buf, sizeof(buf));
	return !strcmp(buf, want);
}

static void test_hypervisor_name(void)
{
	CHECK(named("KVMKVMKVM", "KVM"), "KVM's signature is KVM");
	CHECK(named("bhyve bhyve ", "bhyve"),
	      "bhyve's signature, padded with a space, is bhyve");
	CHECK(named("TCGTCGTCGTCG", "QEMU TCG"), "TCGTCGTCGTCG is QEMU TCG");
	CHECK(named("Microsoft Hv", "Hyper-V"), "Microsoft Hv is Hyper-V");
	CHECK(named(" lrpepyh  vr", "Parallels"),
	      "Parallels' signature, which begins with a space");
	CHECK(named("  NewVisor  ", "NewVisor"),
	      "an unknown signature is its own name, trimmed");
	CHECK(named("", ""), "no signature, no name");
	CHECK(named("KVMKVMKVMKVM", "KVMKVMKVMKVM"),
	      "only a whole signature matches");
}

static void test_hypervisor_fits(void)
{
	char buf[4];

	sysinfo_hypervisor_name("Microsoft Hv", buf, sizeof(buf));
	CHECK(!strcmp(buf, "Hyp"), "a short buffer gets a terminated prefix");
}

int main(void)
{
	test_hypervisor_name();
	test_hypervisor_fits();
	return check_done();
}
