// Broken protocols, rule expect-tx: the bytes expected on a full barrier equal those of the TMA copies that complete on it.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case ONE_BOX_SHORT, expect-tx counts the A box only, not the B box.
// RUN: sed 's/bytes = 49152/bytes = 16384/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE_BOX_SHORT --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case COPY_DROPPED, the TMA copy of the second operand deleted, its bytes still expected.
// RUN: sed '/"ws.tma_load"(%arg1, %1, %arg4, %13#0) {ring = 1/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COPY_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer

// ONE_BOX_SHORT: <stdin>:82:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 16384 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 49152 (ring 0: 16384 at 83:13, ring 1: 32768 at 84:13)
// COPY_DROPPED: <stdin>:58:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 16384 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 8192 (ring 0: 8192 at 59:13)
