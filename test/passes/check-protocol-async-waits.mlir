// Broken protocols, rule async-waits: rules 'wgmma-wait' and 'bulk-wait': a slot read by wgmma or a TMA store is released only after the wait that retires the read.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case WGMMA_WAIT, the wgmma.wait_group in the K loop deleted: a slot is released while wgmma reads it.
// RUN: sed '/wgmma.wait.group.sync.aligned 1/d' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WGMMA_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BULK_READ_WAIT, the bulk wait_group.read deleted: a C slot is released while its TMA store reads it.
// RUN: sed '/bulk.wait_group 1 {read}/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BULK_READ_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BULK_DRAIN, the bulk wait_group 0 after the store loop deleted.
// RUN: sed '/bulk.wait_group 0/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BULK_DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer

// WGMMA_WAIT: <stdin>:46:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 39:17 that reads it may still run: no wgmma.wait_group covers it before this arrive
// BULK_READ_WAIT: <stdin>:82:15: error: 'ws.arrive' op breaks the protocol rule 'bulk-wait': releases slot 0 of channel 1 (iteration 0) while the TMA store at 75:13 may still read it: no cp.async.bulk.wait_group.read covers it before this arrive
// BULK_DRAIN: <stdin>:75:13: error: 'ws.tma_store' op breaks the protocol rule 'bulk-wait': may still read shared memory when its partition exits: no cp.async.bulk.wait_group drains it
