// SPDX-License-Identifier: GPL-2.0
/*
 * A "student" module for tests/vmhost/grade-hostile.sh: once loaded, a
 * thread of its own dereferences a bad pointer, so the kernel oopses
 * (the thread dies, the guest lives on) and the student's programs then
 * clear the kernel log, hoping the grader reads only that.
 */
#include <linux/kthread.h>
#include <linux/module.h>

static int oopsy_thread(void *unused)
{
	int *volatile bad = (int *)16;

	return *bad;
}

static int __init oopsy_init(void)
{
	return PTR_ERR_OR_ZERO(kthread_run(oopsy_thread, NULL, "oopsy"));
}
module_init(oopsy_init);
MODULE_LICENSE("GPL");
