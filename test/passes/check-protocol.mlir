// ws-check-protocol proves the protocols ws-insert-barriers emits: the saved
// plans of the example add and matmul kernels pass, with the work it did. By
// default (method=order) it runs one interleaving per trip count and checks
// its happens-before order; method=states, the reference, visits every
// reachable state. Both prove the same kernels; so does every interleaving
// the order method may run (seed).
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' %S/Inputs/check-protocol-add.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=ADD
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' %S/Inputs/check-protocol-matmul.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MM
// ADD: check-protocol-add.mlir:5:5: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, 771 states explored (one interleaving per trip count) and 980 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// MM: check-protocol-matmul.mlir:5:5: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, 660 states explored (one interleaving per trip count) and 1936 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true method=states})' %S/Inputs/check-protocol-add.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=ADD_STATES
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true method=states})' %S/Inputs/check-protocol-matmul.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MM_STATES
// ADD_STATES: check-protocol-add.mlir:5:5: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, 11273 states explored (every interleaving, state by state); no deadlock, race, miscount or register overrun
// MM_STATES: check-protocol-matmul.mlir:5:5: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, 10494 states explored (every interleaving, state by state); no deadlock, race, miscount or register overrun
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true seed=1})' %S/Inputs/check-protocol-matmul.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MM
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true seed=7})' %S/Inputs/check-protocol-add.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=ADD
//
// From stock mlir-opt through the plugin.
// RUN: %mlir_opt --irdl-file=%ws_irdl --load-pass-plugin=%ws_plugin --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' %S/Inputs/check-protocol-matmul.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=MM
//
// It runs in ws-pipeline after ws-specialize, and first in stage=lower,
// which reads a plan fed back; check-protocol=false leaves it out (how the
// GPU demonstrations of broken protocols are built).
// RUN: ws-opt --ws-pipeline --mlir-timing %S/Inputs/check-protocol-add.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: ws-insert-barriers
// TIMING-NEXT: ws-specialize
// TIMING-NEXT: ws-check-protocol
// TIMING-NEXT: ws-lower-to-nvvm
// RUN: sed '/"ws.arrive"(%7#0) {barrier = "empty"/d' %S/Inputs/check-protocol-add.mlir | not ws-opt --ws-pipeline=stage=lower 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: <stdin>:56:13: error: 'ws.wait' op breaks the protocol rule 'balance'
// RUN: sed '/"ws.arrive"(%7#0) {barrier = "empty"/d' %S/Inputs/check-protocol-add.mlir | ws-opt --ws-pipeline="stage=lower check-protocol=false format=isa" | FileCheck %s --check-prefix=OFF
// OFF: gpu.binary @kernels
// OFF-SAME: mbarrier.try_wait.parity
