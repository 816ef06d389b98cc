// SPDX-License-Identifier: GPL-2.0
/* A "student" module that panics the guest when loaded (tests/vmhost/grade.sh). */
#include <linux/kernel.h>
#include <linux/module.h>

static int __init panicky_init(void)
{
	panic("panicky: deliberate panic for the grading test");
	return 0;
}
module_init(panicky_init);
MODULE_LICENSE("GPL");
