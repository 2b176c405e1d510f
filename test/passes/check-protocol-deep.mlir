// The proof's cost stays linear in the ring depth: the 8-stage kernels of
// Inputs/deep-kernels.mlir (2 to 6 f32 input rings and an f8 output ring, or a
// 1-D relu, 8 slots per ring, two compute warpgroups) had 2.5 to over 10
// million states when every state was visited, and one was refused at the
// state bound. The default method runs one interleaving per trip count (a
// state per event) and checks its happens-before order; the counts below are
// pinned so that an explosion fails here instead of in a user's build.
// RUN: ws-opt %S/Inputs/deep-kernels.mlir --split-input-file --ws-pipeline=explain=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// PROVED: deep-kernels.mlir:7:5: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 18, 3505 states explored (one interleaving per trip count) and 4512 happens-before checks covering every other
// PROVED: deep-kernels.mlir:30:5: remark: protocol proved: 2 channel(s), 4 ring(s), trip counts 0 to 18, 4018 states explored (one interleaving per trip count) and 5025 happens-before checks covering every other
// PROVED: deep-kernels.mlir:55:5: remark: protocol proved: 2 channel(s), 5 ring(s), trip counts 0 to 18, 4531 states explored (one interleaving per trip count) and 5538 happens-before checks covering every other
// PROVED: deep-kernels.mlir:82:5: remark: protocol proved: 2 channel(s), 7 ring(s), trip counts 0 to 18, 5557 states explored (one interleaving per trip count) and 6564 happens-before checks covering every other
// PROVED: deep-kernels.mlir:113:5: remark: protocol proved: 2 channel(s), 2 ring(s), trip counts 0 to 18, 2992 states explored (one interleaving per trip count) and 3999 happens-before checks covering every other
//
// The saved plan of the 6-input kernel is proved from every interleaving the
// method may run.
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' %S/Inputs/check-protocol-deep.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true seed=3})' %S/Inputs/check-protocol-deep.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true seed=12345})' %S/Inputs/check-protocol-deep.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// PLAN: check-protocol-deep.mlir:6:5: remark: protocol proved: 2 channel(s), 7 ring(s), trip counts 0 to 18, 5557 states explored (one interleaving per trip count) and 6564 happens-before checks covering every other
//
// Broken at depth 8, each rejected with its rule at the op that breaks it.
// Case DELETED_RELEASE, the compute warpgroups' release of the input slots deleted.
// RUN: sed '41d' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DELETED_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// Case SWAPPED_PHASE, the consumers of the six input rings wait from phase 1.
// RUN: sed '32s/start_phase = 0/start_phase = 1/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SWAPPED_PHASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// Case PRODUCER_PHASE, the load warp waits on the empty barriers from phase 0.
// RUN: sed '66s/start_phase = 1/start_phase = 0/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRODUCER_PHASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// Case LAGGING_RELEASE, the store warp releases the output slot of 8 stores back
// instead of 7: with 8 slots the compute warpgroups wait for a release that
// follows a store they have not published (a deadlock at 9 iterations, which
// no single agent's events show).
// RUN: sed '92s/arith.constant 7/arith.constant 8/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGING_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed '92s/arith.constant 7/arith.constant 8/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{seed=9})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGING_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
//
// DELETED_RELEASE: <stdin>:66:13: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 8, 1 thread) waits on the empty barrier of channel 0 for iteration 8, which needs the arrivals of iteration 0, but no partition arrives on it then (with 9 iterations): an arrive is missing or skipped on this path
// SWAPPED_PHASE: <stdin>:33:11: error: 'ws.wait' op breaks the protocol rule 'phases': a consumer waits on the full barrier from phase 0, but this wait's ws.slot_phase (at 32:18) starts at phase 1
// PRODUCER_PHASE: <stdin>:67:13: error: 'ws.wait' op breaks the protocol rule 'phases': a producer waits on the empty barrier from phase 1, but this wait's ws.slot_phase (at 66:21) starts at phase 0
// LAGGING_RELEASE: <stdin>:49:11: error: 'ws.wait' op breaks the protocol rule 'deadlock': with 9 iterations, no partition can move: the compute partition (warps 0-3) waits at 49:11 on the empty barrier of channel 1 slot 0 for iteration 8 (parity 0), which stays in phase 0 with 1 arrival and 0 of 0 expected bytes missing; the compute partition (warps 4-7) waits at 49:11 on the empty barrier of channel 1 slot 0 for iteration 8 (parity 0), which stays in phase 0 with 1 arrival and 0 of 0 expected bytes missing; the store partition (warp 9, 1 thread) waits at 88:13 on the full barrier of channel 1 slot 0 for iteration 8 (parity 1), which stays in phase 1 with 256 arrivals and 0 of 0 expected bytes missing
