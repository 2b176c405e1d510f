// Broken protocols, rule trips and the rules a longer run reaches: the proof
// holds for every trip count, not only the ones it runs. A decision of the
// protocol (a guard around protocol ops, a slot and phase, a loop's bounds)
// that depends on the iteration must repeat with a period past a prefix and
// before a suffix the proof's runs cover (protocol_horizon.c states the
// argument): a comparison with a constant lengthens the runs past it, a
// remainder or mask makes their period its multiple, and a product, an
// xor or a threshold past the proof's 64 is refused (rule 'trips'). Each
// RUN edits a saved plan (test/passes/Inputs/) by hand; each of the first
// nine breaks only after the 2P + 2 trips the proof used to run, and was
// accepted then. The VALID runs show what does not count.

// Case LT20, the compute partition releases its input slot only while n < 20: the load warp hangs at iteration 24, past the default 10 trips.
// RUN: sed '36s/.*/          %g = arith.constant 20 : i32\n          %gc = arith.cmpi ult, %arg5, %g : i32\n          scf.if %gc {\n            "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LT20 --implicit-check-not=error: --implicit-check-not=Sanitizer
// LT20: <stdin>:61:13: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 4, 1 thread) waits on the empty barrier of channel 0 for iteration 24, which needs the arrivals of iteration 20, but no partition arrives on it then (with 25 iterations): an arrive is missing or skipped on this path

// Case MOD16, the release skipped when n mod 16 == 15.
// RUN: sed '36s/.*/          %g = arith.constant 16 : i32\n          %g15 = arith.constant 15 : i32\n          %gm = arith.remui %arg5, %g : i32\n          %gc = arith.cmpi ne, %gm, %g15 : i32\n          scf.if %gc {\n            "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MOD16 --implicit-check-not=error: --implicit-check-not=Sanitizer
// MOD16: <stdin>:41:13: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 0 skip iteration 15 (this one is for iteration 16): the arrive is not on every path (an scf.if around it?)

// Case KCOORD, the release gated on the column coordinate (the loop's variable, a step of 64) staying below 1280: 20 steps.
// RUN: sed '36s/.*/          %g = arith.constant 1280 : i32\n          %gc = arith.cmpi ult, %arg4, %g : i32\n          scf.if %gc {\n            "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KCOORD --implicit-check-not=error: --implicit-check-not=Sanitizer
// KCOORD: <stdin>:61:13: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 4, 1 thread) waits on the empty barrier of channel 0 for iteration 24, which needs the arrivals of iteration 20, but no partition arrives on it then (with 25 iterations): an arrive is missing or skipped on this path

// Case SLOT_MOD20, the compute partition's slot and phase taken from n mod 20.
// RUN: sed '31s/.*/          %g = arith.constant 20 : i32\n          %gm = arith.remui %arg5, %g : i32\n          %7:2 = "ws.slot_phase"(%gm) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SLOT_MOD20 --implicit-check-not=error: --implicit-check-not=Sanitizer
// SLOT_MOD20: <stdin>:34:11: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the full barrier of channel 0 since the start (iteration 20), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold

// Case C_FIRST_5, the consumers wait for the C slot only for their first 5 tiles.
// RUN: sed '83s/.*/          %g = arith.constant 5 : i32\n          %gc = arith.cmpi ult, %arg9, %g : i32\n          scf.if %gc {\n            "ws.wait"(%23#0, %23#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()\n          }/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_FIRST_5 --implicit-check-not=error: --implicit-check-not=Sanitizer
// C_FIRST_5: <stdin>:88:11: error: 'ws.write_slot' op breaks the protocol rule 'balance': writes slot 0 of ring 3 for iteration 5 without first waiting on the empty barrier of channel 2 for it

// Case C_MOD5, the consumers count the C slot's tiles modulo 5.
// RUN: sed '82s/.*/          %g = arith.constant 5 : i32\n          %gm = arith.remui %arg9, %g : i32\n          %23:2 = "ws.slot_phase"(%gm) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_MOD5 --implicit-check-not=error: --implicit-check-not=Sanitizer
// C_MOD5: <stdin>:85:11: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 2 since the start (iteration 5), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold

// Case TURNS_7, ping-pong's turn waits stop after 7 turns.
// RUN: sed '66s/.*/              %g = arith.constant 7 : i32\n              %gc = arith.cmpi ult, %arg9, %g : i32\n              scf.if %gc {\n                "ws.wait"(%36#0, %36#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()\n              }/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURNS_7 --implicit-check-not=error: --implicit-check-not=Sanitizer
// TURNS_7: <stdin>:92:13: error: 'ws.arrive' op breaks the protocol rule 'counts': with 8 tiles of 0 iterations, in the compute partition (warps 4-7), this arrive for iteration 7 (phase 7 of slot 0) may reach the full barrier of channel 3 before phase 6 completes (nothing orders it after 93:13): that phase gets more arrivals than its count

// Case ROWS_LT20, a row kernel's compute partition releases a row chunk's slot only while n < 20.
// RUN: sed '39s/.*/          %g = arith.constant 20 : i32\n          %gc = arith.cmpi ult, %arg4, %g : i32\n          scf.if %gc {\n            "ws.arrive"(%9#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-rows.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROWS_LT20 --implicit-check-not=error: --implicit-check-not=Sanitizer
// ROWS_LT20: <stdin>:107:13: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 4, 1 thread) waits on the empty barrier of channel 0 for iteration 22, which needs the arrivals of iteration 20, but no partition arrives on it then (with 23 iterations): an arrive is missing or skipped on this path

// Case SPLIT_K_C_FIRST_3, a cooperative split-K matmul's consumers wait for the C slot only for their first 3 tiles.
// RUN: sed '105s/.*/          %g = arith.constant 3 : i32\n          %gc = arith.cmpi ult, %arg12, %g : i32\n          scf.if %gc {\n            "ws.wait"(%39#0, %39#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()\n          }/' %S/Inputs/check-protocol-split-k.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPLIT_K_C_FIRST_3 --implicit-check-not=error: --implicit-check-not=Sanitizer
// SPLIT_K_C_FIRST_3: <stdin>:110:11: error: 'ws.write_slot' op breaks the protocol rule 'balance': writes slot 0 of ring 3 for iteration 3 without first waiting on the empty barrier of channel 2 for it

// Case LT1000, the release only while n < 1000: covering it takes more trips than the proof runs.
// RUN: sed '36s/.*/          %g = arith.constant 1000 : i32\n          %gc = arith.cmpi ult, %arg5, %g : i32\n          scf.if %gc {\n            "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LT1000 --implicit-check-not=error: --implicit-check-not=Sanitizer
// LT1000: <stdin>:37:17: error: 'arith.cmpi' op breaks the protocol rule 'trips': it compares the iteration with constants past 64 from its first and 0 from its last, so covering every trip count would take runs of more trips than the 74 the proof runs; ws's protocols repeat with their ring depths from the first iterations

// Case SQUARE, the release guarded by n x n >= 3.
// RUN: sed '36s/.*/          %gq = arith.muli %arg5, %arg5 : i32\n          %g = arith.constant 3 : i32\n          %gc = arith.cmpi uge, %gq, %g : i32\n          scf.if %gc {\n            "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n          }/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SQUARE --implicit-check-not=error: --implicit-check-not=Sanitizer
// SQUARE: <stdin>:36:17: error: 'arith.muli' op breaks the protocol rule 'trips': it multiplies two values of the loop's iteration, so the protocol's decisions need not repeat as the trip count grows and no bounded run proves it for every trip count

// Case XOR, the slot taken from n xor 1.
// RUN: sed '31s/.*/          %g = arith.constant 1 : i32\n          %gm = arith.xori %arg5, %g : i32\n          %7:2 = "ws.slot_phase"(%gm) {depth = 4 : i32, start_phase = 0 : i32} : (i32) -> (i32, i32)/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=XOR --implicit-check-not=error: --implicit-check-not=Sanitizer
// XOR: <stdin>:32:17: error: 'arith.xori' op breaks the protocol rule 'trips': it takes a bitwise or of an integer of the loop's iteration, so the protocol's decisions need not repeat as the trip count grows and no bounded run proves it for every trip count

// VALID: comparisons of the iteration whose results guard nothing (n >= 3, the coordinate below 1000): only decisions count.
// RUN: sed '36s/.*/          %g = arith.constant 3 : i32\n          %gc = arith.cmpi uge, %arg5, %g : i32\n          %gd = arith.constant 1000 : i32\n          %ge = arith.cmpi ult, %arg4, %gd : i32\n          "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null

// VALID: a remainder that no decision reads.
// RUN: sed '42s/.*/          %g = arith.constant 2 : i32\n          %gm = arith.remui %arg5, %g : i32\n          "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null

// VALID: ping-pong's turn wait guarded again by the condition it is under (turn >= 1).
// RUN: sed '66s/.*/              %g = arith.constant 1 : i32\n              %gc = arith.cmpi uge, %arg9, %g : i32\n              scf.if %gc {\n                "ws.wait"(%36#0, %36#1) {barrier = "full", channel = 3 : i32} : (i32, i32) -> ()\n              }/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
