// SPDX-License-Identifier: GPL-2.0
/* A "student" module that does not compile (tests/vmhost/grade.sh). */
#include <linux/module.h>

static int __init broken_init(void)
{
	return undeclared_variable;
}
module_init(broken_init);
MODULE_LICENSE("GPL");
