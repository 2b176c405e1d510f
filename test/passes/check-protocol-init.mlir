// Broken protocols, rule init: rules 'init' and 'memory': barriers initialized once, fenced and published; the memory map apart.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case INIT_IN_A_WARP, a whole warp initializes the barriers.
// RUN: sed 's/%4 = arith.cmpi eq, %2, %c0_i32_1 : i32/%4 = arith.cmpi ult, %2, %c32_i32_0 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT_IN_A_WARP --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case INIT_FENCE, fence.mbarrier.init deleted.
// RUN: sed '/fence.mbarrier.init/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INIT_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BARRIERS_OVER_RING, the full barriers of channel 0 moved over ring 0.
// RUN: sed 's/full = 81920 : i32/full = 0 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BARRIERS_OVER_RING --implicit-check-not=error: --implicit-check-not=Sanitizer

// INIT_IN_A_WARP: <stdin>:19:9: error: 'ws.init_barrier' op breaks the protocol rule 'init': runs in 32 threads; one thread must initialize each barrier
// INIT_FENCE: <stdin>:23:7: error: 'nvvm.barrier0' op breaks the protocol rule 'init': the barrier initializations before it are not made visible with nvvm.fence.mbarrier.init
// BARRIERS_OVER_RING: <stdin>:5:5: error: 'gpu.func' op breaks the protocol rule 'memory': the ring 0 [0, 32768) overlaps the full barriers of channel 0 [0, 32)
