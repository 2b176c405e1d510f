// Broken protocols, rule deadlock-race: rules 'deadlock' and 'race', found by exploring every interleaving.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case NAMED_BARRIER_COUNT, the consumers' named barrier waits for 384 threads; 256 arrive.
// RUN: sed 's/number_of_threads = %c256_i32_3/number_of_threads = %c384/; s/^\(        \)nvvm.barrier id/\1%c384 = arith.constant 384 : i32\n\1nvvm.barrier id/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAMED_BARRIER_COUNT --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case NAMED_BARRIER_DROPPED, the named barrier before the C tile deleted: one consumer warpgroup writes C over A/B while the other's wgmma still reads them.
// RUN: sed '/nvvm.barrier id/d' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NAMED_BARRIER_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case LAGGING_RELEASE, the store partition releases the C slot two stores back instead of one: with two slots, the compute partition waits for a release that follows a store it has not published.
// RUN: sed '78s/arith.constant 1 : i32/arith.constant 2 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGING_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// NAMED_BARRIER_COUNT: <stdin>:64:9: error: 'nvvm.barrier' op breaks the protocol rule 'deadlock': with 0 iterations, no partition can move: the compute partition (warps 0-3) waits at 64:9 (nvvm.barrier 1) for 384 threads; 256 arrive; the compute partition (warps 4-7) waits at 64:9 (nvvm.barrier 1) for 384 threads; 256 arrive; the store partition (warp 9, 1 thread) waits at 98:11 on the full barrier of channel 1 slot 0 for iteration 0 (parity 0), which stays in phase 0 with 256 arrivals and 0 of 0 expected bytes missing
// NAMED_BARRIER_DROPPED: <stdin>:39:17: error: 'ws.mma' op breaks the protocol rule 'race': with 1 iteration, in the compute partition (warps 0-3), this op uses ring 0, whose memory ring 2 shares, while the compute partition (warps 4-7) may access ring 2 at the same time (at 67:9): nothing orders them
// The same three through the reference (method=states), and through
// interleavings that do not show the race or deadlock themselves (seed):
// the happens-before checks find it. Same rule, same op.
// RUN: sed '/nvvm.barrier id/d' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DROPPED_STATES --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed '/nvvm.barrier id/d' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{seed=1})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DROPPED_SEED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed '78s/arith.constant 1 : i32/arith.constant 2 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGING_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed '78s/arith.constant 1 : i32/arith.constant 2 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{seed=5})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGING_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// DROPPED_STATES: <stdin>:39:17: error: 'ws.mma' op breaks the protocol rule 'race': with 1 iteration, in the compute partition (warps 0-3), this op uses ring 0, whose memory ring 2 shares, while the compute partition (warps 4-7) may access ring 2 at the same time (at 67:9): nothing orders them
// DROPPED_SEED: <stdin>:39:17: error: 'ws.mma' op breaks the protocol rule 'race': with 1 iteration, in the compute partition (warps 0-3), this op uses ring 0, whose memory ring 2 shares, while the compute partition (warps 4-7) may access ring 2 at the same time (at 67:9): nothing orders them
// LAGGING_RELEASE: <stdin>:39:11: error: 'ws.wait' op breaks the protocol rule 'deadlock': with 3 iterations, no partition can move: the compute partition (warps 0-3) waits at 39:11 on the empty barrier of channel 1 slot 0 for iteration 2 (parity 0), which stays in phase 0 with 1 arrival and 0 of 0 expected bytes missing; the store partition (warp 5, 1 thread) waits at 74:13 on the full barrier of channel 1 slot 0 for iteration 2 (parity 1), which stays in phase 1 with 128 arrivals and 0 of 0 expected bytes missing
