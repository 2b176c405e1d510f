// Broken protocols, rule phases: slot = i mod depth with the channel's depth, producers start at phase 1 and consumers at 0, the n-th wait or arrive is for iteration n.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case CONSUMER_START_PHASE, the consumer's full wait starts at phase 1 (swapped).
// RUN: sed '0,/depth = 4 : i32, start_phase = 0/s//depth = 4 : i32, start_phase = 1/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CONSUMER_START_PHASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case PRODUCER_START_PHASE, the producer's empty wait starts at phase 0 (swapped).
// RUN: sed 's/{depth = 4 : i32, start_phase = 1 : i32}/{depth = 4 : i32, start_phase = 0 : i32}/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PRODUCER_START_PHASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case WRONG_DEPTH, the compute partition counts slots of channel 0 modulo 3, the producer modulo 4.
// RUN: sed '0,/{depth = 4 : i32, start_phase = 0 : i32}/s//{depth = 3 : i32, start_phase = 0 : i32}/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG_DEPTH --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case WRONG_CHANNEL, the store partition waits on channel 0's full barrier instead of channel 1's.
// RUN: sed 's/"ws.wait"(%14#0, %14#1) {barrier = "full", channel = 1/"ws.wait"(%14#0, %14#1) {barrier = "full", channel = 0/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG_CHANNEL --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case ZERO_TRIP_EXTRA_RELEASE, the n >= 1 guard of the release after the K loop dropped: with zero trips it releases iteration -1.
// RUN: sed 's/%9 = arith.cmpi uge, %8#0, %c1_i32 : i32/%9 = arith.cmpi uge, %8#0, %8#0 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO_TRIP_EXTRA_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// CONSUMER_START_PHASE: <stdin>:37:11: error: 'ws.wait' op breaks the protocol rule 'phases': a consumer waits on the full barrier from phase 0, but this wait's ws.slot_phase (at 36:19) starts at phase 1
// PRODUCER_START_PHASE: <stdin>:57:13: error: 'ws.wait' op breaks the protocol rule 'phases': a producer waits on the empty barrier from phase 1, but this wait's ws.slot_phase (at 56:21) starts at phase 0
// WRONG_DEPTH: <stdin>:32:11: error: 'ws.wait' op breaks the protocol rule 'phases': its slot comes from a ws.slot_phase of depth 3 (at 31:18), but channel 0 has 4 slots, so slot = i mod depth differs between its sides
// WRONG_CHANNEL: <stdin>:97:11: error: 'ws.wait' op breaks the protocol rule 'phases': its slot comes from a ws.slot_phase of depth 1 (at 96:19), but channel 0 has 4 slots, so slot = i mod depth differs between its sides
// ZERO_TRIP_EXTRA_RELEASE: <stdin>:59:11: error: 'ws.arrive' op breaks the protocol rule 'phases': is this partition's first arrive on the empty barrier of channel 0 since the start (iteration 0), but its slot and phase are those of iteration 4294967295: slot = i mod depth and the phase flip every depth iterations do not hold

// A wait repeated for the same phase, with nothing of the partition's own
// between that could move the phase on, passes at once: valid.
// RUN: sed '32p' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed '32p' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=4})' -o /dev/null

// Case STALE_REWAIT, the same wait again after the slot was released: the
// load warp may refill it for a lap later, whose phase has the same parity.
// RUN: sed '36a\          "ws.wait"(%7#0, %7#1) {barrier = "full", channel = 0 : i32} : (i32, i32) -> ()' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STALE_REWAIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// STALE_REWAIT: <stdin>:37:11: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the full barrier of channel 0 since the start (iteration 1), but its slot and phase are those of iteration 0
