/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The accelerator a batch's guests ran under (grade.options' accel, kvm
 * or tcg), and which shard ran under which when a merge brings together
 * shards graded under different ones.
 */
#ifndef GRADECLASS_ACCEL_H
#define GRADECLASS_ACCEL_H

#include "options.h"

#include <stddef.h>

/*
 * NULL when the n shards' options o[0..n) all name the same accelerator
 * (or none does); else each shard's, in the order of their "K/N", as
 * "kvm (shard 1/2), tcg (shard 2/2)" ("not recorded" for a shard without
 * one).  Free it.
 */
char *accel_by_shard(const struct options *o, size_t n);
/*
 * The line the class reports give: "accelerators: " and accel_shards
 * when the options have it (a merge of shards that differ), else
 * "accelerator: " and accel, or "not recorded".  Free it.
 */
char *accel_describe(const struct options *o);

#endif
