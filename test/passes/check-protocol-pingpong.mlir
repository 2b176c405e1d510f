// The ping-pong persistent matmul's protocol (a 128x128 tile, bias and ReLU in
// the epilogue; saved specialized in Inputs/check-protocol-pingpong.mlir): the
// two consumer warpgroups take alternate tiles, each counting the other's K
// steps, and take turns at the ring through a turn channel (3). Proved, and
// broken by hand in each way below, each rejected at the op that breaks its
// rule.
// RUN: ws-opt %S/Inputs/check-protocol-pingpong.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-pingpong.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=3})' -o /dev/null
// RUN: ws-opt %S/Inputs/check-protocol-pingpong.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=3})' -o /dev/null

// Case TURN_WAIT_DROPPED, a warpgroup does not wait for its turn: the other warpgroup's next turn may come first.
// RUN: sed -e '66d' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_WAIT_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case TURN_ARRIVE_DROPPED, a warpgroup never hands the turn on: the other waits forever.
// RUN: sed -e '88d' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_ARRIVE_DROPPED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case TURN_TOO_EARLY, a warpgroup hands the turn on before its K loop's waits have passed: the other, a lap ahead of the ring, may pass a wait on the parity of the phase before.
// RUN: sed -e '68i\            %q:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)\n            "ws.arrive"(%q#0) {barrier = "full", channel = 3 : i32} : (i32) -> ()' -e '87,88d' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_TOO_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BOTH_EVEN, both warpgroups take the even tiles.
// RUN: sed -e '58s/cmpi eq, %18, %16/cmpi eq, %18, %c0_i32_5/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOTH_EVEN --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case SKIP_NOT_COUNTED, a warpgroup does not advance its K count past the other's tile.
// RUN: sed -e '114s/arith.addi %arg8, %14/arith.addi %arg8, %c0_i32_5/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SKIP_NOT_COUNTED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_SAME_SLOT, both warpgroups hand C off in slot 0 (each tile's count halved).
// RUN: sed -e '108s/slot_phase"(%arg9)/slot_phase"(%18)/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_SAME_SLOT --implicit-check-not=error: --implicit-check-not=Sanitizer

// PROVED: remark: protocol proved: 4 channel(s), 4 ring(s), tile counts 0 to 6, K trip counts 0 to 10, 11264 states explored (one interleaving per trip count) and 15741 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// TURN_WAIT_DROPPED: <stdin>:87:13: error: 'ws.arrive' op breaks the protocol rule 'counts': with 2 tiles of 0 iterations, in the compute partition (warps 4-7), this arrive for iteration 1 (phase 1 of slot 0) may reach the full barrier of channel 3 before phase 0 completes (nothing orders it after 88:13): that phase gets more arrivals than its count
// TURN_ARRIVE_DROPPED: <stdin>:66:15: error: 'ws.wait' op breaks the protocol rule 'balance': the compute partition (warps 4-7) waits on the full barrier of channel 3 for iteration 0, which needs the arrivals of iteration 0, but no partition arrives on it then (with 2 tiles of 0 iterations): an arrive is missing or skipped on this path
// TURN_TOO_EARLY: <stdin>:72:15: error: 'ws.wait' op breaks the protocol rule 'phases': with 2 tiles of 4 iterations, in the compute partition (warps 4-7), this wait for iteration 4 is for phase 1 of the full barrier of channel 0 slot 0, but it may be reached before phase 0 completes (nothing orders it after 144:15), and then the parity of phase -1 lets it through
// BOTH_EVEN: <stdin>:88:13: error: 'ws.arrive' op breaks the protocol rule 'counts': 256 threads arrive on the full barrier of channel 3 for iteration 0, but it was initialized with count 128 (ws.init_barrier at 35:9): its phase completes early and the extra arrivals fall into the next one
// SKIP_NOT_COUNTED: <stdin>:96:15: error: 'ws.arrive' op breaks the protocol rule 'counts': 256 threads arrive on the empty barrier of channel 0 for iteration 0, but it was initialized with count 128 (ws.init_barrier at 30:9): its phase completes early and the extra arrivals fall into the next one
// C_SAME_SLOT: <stdin>:109:13: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 2 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
