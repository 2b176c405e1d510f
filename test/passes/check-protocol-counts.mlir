// Broken protocols, rule counts: the threads arriving on a barrier per phase equal its init count.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case COUNT_OFF_BY_ONE, the empty barrier of channel 0 initialized for 255 threads; 256 arrive.
// RUN: sed 's/barrier = "empty", channel = 0 : i32, count = 256/barrier = "empty", channel = 0 : i32, count = 255/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT_OFF_BY_ONE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case DOUBLE_ARRIVE, the compute partition publishes each C slot twice.
// RUN: sed '/"ws.arrive"(%11#0) {barrier = "full", channel = 1/p' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DOUBLE_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer

// COUNT_OFF_BY_ONE: <stdin>:59:11: error: 'ws.arrive' op breaks the protocol rule 'counts': 256 threads arrive on the empty barrier of channel 0 for iteration 0, but it was initialized with count 255 (ws.init_barrier at 24:9): its phase completes early and the extra arrivals fall into the next one
// DOUBLE_ARRIVE: <stdin>:43:11: error: 'ws.arrive' op breaks the protocol rule 'counts': arrives on the full barrier of channel 1 for iteration 0 a second time: that phase gets more arrivals than its count
