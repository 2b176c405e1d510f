// The pipelined attention protocol (integration/attention.mlir with
// ws.pipeline = true, saved specialized in
// Inputs/check-protocol-attention-pipelined.mlir): each consumer warpgroup
// issues S of step 0 and runs its softmax before the loop; each iteration
// issues S of step n + 1 from slot n + 1, then the rescale and P V of step
// n from slot n, in one turn; it waits for S alone (wait_group 1), runs
// the softmax of step n + 1 while P V runs, then waits for P V and frees
// slot n; P V of the last step comes after the loop. Two S tiles in
// flight, two slots held. Proved by both methods, and broken by hand in
// each way below, each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-attention-pipelined.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-attention-pipelined.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 8
// STATES: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 8, {{[0-9]+}} states explored (every interleaving, state by state)

// Case S_EARLY, the softmax reads S of step n + 1 while its wgmma may
// still write it: the wait keeps two groups pending (S's and P V's).
// RUN: sed -e '131s/aligned 1/aligned 2/' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '131s/aligned 1/aligned 2/' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer
// S_EARLY: <stdin>:132:19: error: 'ws.mma_done' op breaks the protocol rule 'mma-done': reads the product of the ws.mma at 113:19 while its wgmma may still write it

// Case PV_UNWAITED, slot n is freed while P V of step n may still read V
// from it: the wait for P V in the loop is gone.
// RUN: sed -e '152d' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PV_UNWAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// PV_UNWAITED: <stdin>:153:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 1 (iteration 0) while the ws.mma at 122:19 that reads it may still run

// Case RELEASE_NEXT, each iteration frees slot n + 1 (the one its S just
// read and its next P V still reads) instead of slot n.
// RUN: sed -e '153s/(%arg7)/(%64)/' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE_NEXT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELEASE_NEXT: <stdin>:154:13: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 1 skip iteration 0

// Case LAST_PV_UNWAITED, the last slot is freed while P V of the last step
// (after the loop) may still read it.
// RUN: sed -e '177d' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAST_PV_UNWAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// LAST_PV_UNWAITED: <stdin>:178:11: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 1 (iteration 0) while the ws.mma at 175:17 that reads it may still run

// Case TURN_SKIPPED, a warpgroup issues its S and P V without waiting for
// the other's turn, and passes on a turn it never had.
// RUN: sed -e '109d' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_SKIPPED --implicit-check-not=error: --implicit-check-not=Sanitizer
// TURN_SKIPPED: <stdin>:129:13: error: 'ws.arrive' op breaks the protocol rule 'counts': with 2 iterations, in the compute partition (warps 0-3), this arrive for iteration 2 (phase 2 of slot 0) reaches the full barrier of channel 3 while it is in phase 1

// Case EXTRA_STEP, the rotated loop starts at the first step instead of
// the second: it waits for a step the load warp never fills.
// RUN: sed -e '98s/%arg6 = %47 to/%arg6 = %c0_i32 to/' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTRA_STEP --implicit-check-not=error: --implicit-check-not=Sanitizer
// EXTRA_STEP: <stdin>:111:13: error: 'ws.wait' op breaks the protocol rule 'balance': the compute partition (warps 0-3) waits on the full barrier of channel 1 for iteration 1, which needs the arrivals of iteration 1, but no partition arrives on it then (with 1 iteration)
