/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_split_compute.h: whether an elementwise loop's compute runs as
 * several compute partitions, one for each part of its work that shares
 * no tile with the rest (split_compute.c says when and why). Internal. */
#ifndef WS_SPLIT_COMPUTE_H
#define WS_SPLIT_COMPUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "../plan/ws_plan.h"

/* Decides the compute partitions of plan's loop, whose body ops are
 * ops[0, n) with their role masks `roles` (classify's; 0 for scalars).
 * Where the loop asks (ws.split_compute = true) and can split, it appends
 * one compute partition, of the same warps as `compute`, for each part
 * after the first (which keeps `compute`), and writes into part_of[i] the
 * partition of each compute op; every other entry is -1. Returns the
 * number of compute partitions: 1 where the loop keeps one, 0 after a
 * located error (asked where it cannot split). `why` says what decided it
 * where a remark is worth making ("" where the loop is no candidate). */
int ws_split_compute(ws_plan *plan, int compute, const MlirOperation *ops, const unsigned *roles,
                     int n, int *part_of, char *why, size_t cap);

#endif
