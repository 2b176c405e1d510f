// The flash-attention protocol (integration/attention.mlir, saved specialized
// in Inputs/check-protocol-attention.mlir: Q loaded once before the loop, K
// and V through one ring, S = Q K^T read from shared memory by wgmma, O += P V
// with P in registers): proved by both methods, and broken by hand in each
// way below, each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-attention.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-attention.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 3 channel(s), 4 ring(s), trip counts 0 to 8
// STATES: remark: protocol proved: 3 channel(s), 4 ring(s), trip counts 0 to 8, {{[0-9]+}} states explored (every interleaving, state by state)

// Case S_NOT_WAITED, the wait before the softmax is gone: the softmax reads
// S in registers while its wgmma may still write it (and the K slot is
// released before that wgmma was waited for, found later).
// RUN: sed -e '50d' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// S_NOT_WAITED: <stdin>:57:17: error: 'arith.mulf' op breaks the protocol rule 'wgmma-wait': reads in registers the product of the ws.mma at 47:17 while its wgmma may still write it

// Case PV_NOT_WAITED, the last V slot (and Q) are released while the P V
// wgmma may still read it: the wait after the loop is gone.
// RUN: sed -e '79d' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PV_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '79d' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PV_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// PV_NOT_WAITED: <stdin>:84:11: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 1 (iteration 0) while the ws.mma at 73:17 that reads it may still run

// Case EARLY_RELEASE, each K/V slot is released in its own iteration, before
// the P V wgmma has read V (and iteration 0's never).
// RUN: sed -e '54s/arith.subi %arg7, %c1_i32_11/arith.addi %arg7, %c0_i32/' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// EARLY_RELEASE: <stdin>:56:13: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 1 skip iteration 0

// Case Q_NOT_WAITED, the consumers never wait for Q's slot to fill: wgmma
// may read it before TMA wrote it, and the load warp's wait for it is never
// satisfied in order.
// RUN: sed -e '42d' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=Q_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// Q_NOT_WAITED: <stdin>:111:11: error: 'ws.wait' op breaks the protocol rule 'deadlock'

// The attention protocol with turns (integration/attention.mlir as it is now,
// saved specialized in Inputs/check-protocol-attention-turns.mlir: ragged
// B x H x S x D boxes, and the two consumer warpgroups taking turns at their
// wgmmas through channel 3, from the consumers to themselves): proved by
// both methods; dropping either wait for a turn lets a warpgroup pass the
// turn on before it had it, and that arrival lands in the other's phase.
// RUN: ws-opt %S/Inputs/check-protocol-attention-turns.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TURNS
// RUN: ws-opt %S/Inputs/check-protocol-attention-turns.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TURNS
// TURNS: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 8

// Case FIRST_TURN_DROPPED, warpgroup 1 starts without waiting for
// warpgroup 0's first turn (the ping-pong order dropped before the loop).
// RUN: sed -e '59d' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIRST_TURN_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '59d' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIRST_TURN_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer
// FIRST_TURN_DROPPED: <stdin>:124:9: error: 'ws.arrive' op breaks the protocol rule 'counts': with 0 iterations, in the compute partition (warps 4-7), this arrive for iteration 1 (phase 1 of slot 0)

// Case TURN_DROPPED, a warpgroup issues P V without waiting for its turn
// (the ping-pong order dropped inside the loop).
// RUN: sed -e '111d' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '111d' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer
// TURN_DROPPED: <stdin>:124:9: error: 'ws.arrive' op breaks the protocol rule 'counts': with 1 iteration, in the compute partition (warps {{0-3|4-7}}), this arrive for iteration {{2|3}}
