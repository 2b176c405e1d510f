/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* ws_step_pipeline.h: whether a loop's consumers issue the next step's
 * first run of wgmmas before this step's second (step_pipeline.c says when
 * and why). Internal. */
#ifndef WS_STEP_PIPELINE_H
#define WS_STEP_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "../plan/ws_plan.h"

typedef enum ws_pipeline_choice {
  WS_PIPELINE_OFF,
  WS_PIPELINE_ON,
  WS_PIPELINE_REFUSED /* ws.pipeline = true on a loop that cannot be */
} ws_pipeline_choice;

/* Whether the consumers (partition `compute`) of plan's loop pipeline its
 * steps: two runs of ws.dot, the first reading only loaded tiles into
 * fresh products, all register math between the runs, and registers for
 * two S tiles beside the carried tiles and the second run's P (or
 * ws.pipeline on the loop says so). `why` says what decided it where a
 * remark is worth making ("" when the loop has not two runs, or cannot
 * pipeline for another mode: persistent, lagged). */
ws_pipeline_choice ws_choose_step_pipeline(const ws_plan *plan, int compute, char *why, size_t cap);

/* Writes the pipeline's stages on the loop's ops: the late math (what
 * reads a tile the second run of ws.dot carries to the next step, O,
 * directly or through other math, and the cheap ops, a ws.broadcast of the
 * rescale factor, whose every user is late) and the second run run in
 * stage 1, a step behind the first run and the early math (the softmax). */
void ws_stage_step_pipeline(MlirOperation loop);

#endif
