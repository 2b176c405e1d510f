/* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception */
/* protocol_report.c: what every part of ws-check-protocol shares: naming
 * barriers, ops and agents, and the one form its rule
 * errors take ("'OP' op breaks the protocol rule 'RULE': ..."). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ws_protocol.h"
#include "../../dialect/ws_text.h"

const char *ws_barrier_name(int full) { return full ? "full" : "empty"; }

const char *ws_op_where(MlirOperation op, char *buf, int cap) {
  return ws_loc_str(mlirOperationGetLocation(op), buf, (size_t)cap);
}

const char *ws_agent_name(const ws_run *run, const ws_agent *a, char *buf, int cap) {
  const char *part = a->part >= 0 ? run->plan->parts[a->part].name : "no";
  char cta[32] = "";
  if (run->ctas > 1)
    snprintf(cta, sizeof cta, " of CTA %d", a->cta);
  if (a->first_warp == a->last_warp)
    snprintf(buf, (size_t)cap, "the %s partition%s (warp %d, %d thread%s)", part, cta,
             a->first_warp, a->mult, a->mult == 1 ? "" : "s");
  else
    snprintf(buf, (size_t)cap, "the %s partition%s (warps %d-%d)", part, cta, a->first_warp,
             a->last_warp);
  return buf;
}

int ws_event_arrivals(const ws_agent *A, const ws_event *e) {
  return e->per_warp ? A->mult / 32 : A->mult;
}

const ws_event *ws_find_event(const ws_run *run, int kind, int ring) {
  for (int a = 0; a < run->num_agents; a++)
    for (int k = 0; k < run->agents[a].n; k++) {
      const ws_event *e = &run->agents[a].ev[k];
      if (e->kind == kind && (ring < 0 || e->ring == ring || e->ring_b == ring))
        return e;
    }
  return NULL;
}

bool ws_rule_error(MlirOperation op, const char *rule, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ws_emit_op_error(op, "breaks the protocol rule '%s': %s", rule, msg);
  return false;
}

const char *ws_trips_text(const ws_run *run, char *buf, int cap) {
  if (run->seq_len > 0) { /* a stream-K run */
    int at = snprintf(buf, (size_t)cap, "units of");
    for (int i = 0; i < run->seq_len && at > 0 && at < cap; i++)
      at += snprintf(buf + at, (size_t)(cap - at), "%s %lld", i ? "," : "", run->seq[i]);
    if (at > 0 && at < cap)
      snprintf(buf + at, (size_t)(cap - at), " K steps");
  } else if (run->tiles < 0)
    snprintf(buf, (size_t)cap, "%lld iteration%s", run->trips, run->trips == 1 ? "" : "s");
  else
    snprintf(buf, (size_t)cap, "%lld tile%s of %lld iteration%s", run->tiles,
             run->tiles == 1 ? "" : "s", run->trips, run->trips == 1 ? "" : "s");
  return buf;
}

long long ws_run_span(const ws_run *run) {
  if (run->tiles < 0)
    return run->trips;
  long long tiles = run->tiles < 1 ? 1 : run->tiles;
  long long span = run->trips * tiles;
  return span > tiles ? span : tiles;
}
