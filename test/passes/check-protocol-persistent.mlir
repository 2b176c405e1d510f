// The persistent matmul's protocol (integration/matmul_persistent.mlir, saved
// specialized in Inputs/check-protocol-persistent.mlir: a tile loop per
// partition, the K loop inside, a bias loaded in the epilogue): proved over
// tile counts and K trip counts, and broken by hand in each way below, each
// rejected at the op that breaks its rule.
// The saved plan is proved: tile counts 0 to 4 (2 x the per-tile channels'
// depth + 2), K trip counts 0 to 8 (2 x the ring depth + 2); another
// interleaving and the state-by-state search agree.
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=7})' -o /dev/null
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=3 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES

// Case PHASE_RESET, the load warp's tile loop starts each tile's K count from 0 again (a phase reset at a tile boundary).
// RUN: sed -e '127s/scf.yield %29, %31/scf.yield %c0_i32_3, %31/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PHASE_RESET --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case K_COUNT_LOST, the consumers' tile loop drops the K count (each tile starts at the previous tile's start).
// RUN: sed -e '89s/scf.yield %13#0, %24/scf.yield %arg8, %24/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K_COUNT_LOST --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_COUNT_STUCK, the consumers' tile count is not advanced: every tile hands off C and takes the bias in slot phase 0.
// RUN: sed -e '89s/scf.yield %13#0, %24/scf.yield %13#0, %arg9/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_COUNT_STUCK --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case DOUBLE_RELEASE, the K loop releases the slot before its step from K count 1 on, not from the tile's first step + 1: the previous tile's last slot is released twice.
// RUN: sed -e '53s/uge, %arg11, %27/uge, %arg11, %c1_i32_5/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DOUBLE_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case NO_TILE_DRAIN, the wgmma.wait_group 0 after the K loop deleted: the tile's last slot is released while wgmma reads it.
// RUN: sed -e '63d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_TILE_DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_NOT_WAITED, the consumers write C without waiting for the store warp to free it.
// RUN: sed -e '83d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case HANDOFF_EARLY, the store warp releases the C slot before its TMA store has read it (the bulk wait_group.read deleted).
// RUN: sed -e '151d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HANDOFF_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case STORE_UNWAITED, the store warp stores C without waiting for the consumers to publish it.
// RUN: sed -e '148d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORE_UNWAITED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_OVER_RINGS, the C slot moved over the A ring: the producer is already filling it for the next tile.
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_OVER_RINGS --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BIAS_RELEASED_EARLY, the consumers release the bias slot before they read it: the load warp may refill it with the next tile's bias.
// RUN: sed -e '74i\          "ws.arrive"(%16#0) {barrier = "empty", channel = 1 : i32} : (i32) -> ()' -e '76d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS_RELEASED_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BIAS_NO_FENCE, the proxy fence between the consumers' generic reads of the bias and its release deleted: the next TMA write may pass the reads.
// RUN: sed -e '75d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS_NO_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BIAS_UNWAITED, the consumers read the bias slot without waiting for its TMA load.
// RUN: sed -e '73d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS_UNWAITED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case BIAS_COUNT_STUCK, the load warp's bias count is not advanced: every tile's bias goes into slot phase 0.
// RUN: sed -e '127s/scf.yield %29, %31/scf.yield %29, %arg9/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS_COUNT_STUCK --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case TILE_BOUNDS, the store warp's tile loop over other bounds than the other partitions'.
// RUN: sed -e '136s/%6 to %4 step %7/%6 to %5 step %7/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILE_BOUNDS --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case K_BOUNDS, the load warp's K loop over other bounds than the consumers'.
// RUN: sed -e '111s/to %arg6/to %arg5/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K_BOUNDS --implicit-check-not=error: --implicit-check-not=Sanitizer

// Shared memory reused across tiles, ordered by barriers, is accepted: the
// C slot moved over the A ring, a named barrier of the consumers before
// the C write (the other warpgroup's last wgmma of the tile has retired),
// and the load warp waiting, before each tile's K loop, for the store warp
// to free the previous tile's C (the hand-off's empty barrier) before it
// refills the ring. Both methods prove it; without either barrier both
// reject it.
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '71a\          %cb1 = arith.constant 1 : i32\n          %cb256 = arith.constant 256 : i32\n          nvvm.barrier id = %cb1 number_of_threads = %cb256' -e '110a\            %gate:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)\n            "ws.wait"(%gate#0, %gate#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REUSE
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '71a\          %cb1 = arith.constant 1 : i32\n          %cb256 = arith.constant 256 : i32\n          nvvm.barrier id = %cb1 number_of_threads = %cb256' -e '110a\            %gate:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)\n            "ws.wait"(%gate#0, %gate#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REUSE_STATES

// Case REUSE_UNGATED, without the load warp's wait: the next tile's loads may land on C before the store has read it.
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '71a\          %cb1 = arith.constant 1 : i32\n          %cb256 = arith.constant 256 : i32\n          nvvm.barrier id = %cb1 number_of_threads = %cb256' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REUSE_UNGATED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '71a\          %cb1 = arith.constant 1 : i32\n          %cb256 = arith.constant 256 : i32\n          nvvm.barrier id = %cb1 number_of_threads = %cb256' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 | FileCheck %s --check-prefix=RACE

// Case REUSE_NO_BARRIER, without the named barrier: one warpgroup writes C while the other's wgmma reads the A ring.
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '110a\            %gate:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)\n            "ws.wait"(%gate#0, %gate#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REUSE_NO_BARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e 's/channel = 2 : i32, offset = 148480/channel = 2 : i32, offset = 0/' -e '110a\            %gate:2 = "ws.slot_phase"(%arg9) {depth = 1 : i32, start_phase = 1 : i32} : (i32) -> (i32, i32)\n            "ws.wait"(%gate#0, %gate#1) {barrier = "empty", channel = 2 : i32} : (i32, i32) -> ()' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 | FileCheck %s --check-prefix=RACE

// PROVED: remark: protocol proved: 3 channel(s), 4 ring(s), tile counts 0 to 4, K trip counts 0 to 8, 5265 states explored (one interleaving per trip count) and 7560 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// STATES: remark: protocol proved: 3 channel(s), 4 ring(s), tile counts 0 to 3, K trip counts 0 to 3, 31948 states explored (every interleaving, state by state); no deadlock, race, miscount or register overrun
// PHASE_RESET: <stdin>:113:15: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 0 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// K_COUNT_LOST: <stdin>:46:13: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the full barrier of channel 0 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// C_COUNT_STUCK: <stdin>:73:11: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the full barrier of channel 1 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// DOUBLE_RELEASE: <stdin>:57:15: error: 'ws.arrive' op breaks the protocol rule 'counts': arrives on the empty barrier of channel 0 for iteration 0 a second time: that phase gets more arrivals than its count
// NO_TILE_DRAIN: <stdin>:69:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 48:19 that reads it may still run: no wgmma.wait_group covers it before this arrive
// C_NOT_WAITED: <stdin>:83:11: error: 'ws.write_slot' op breaks the protocol rule 'balance': writes slot 0 of ring 3 for iteration 0 without first waiting on the empty barrier of channel 2 for it
// HANDOFF_EARLY: <stdin>:156:15: error: 'ws.arrive' op breaks the protocol rule 'bulk-wait': releases slot 0 of channel 2 (iteration 0) while the TMA store at 149:13 may still read it: no cp.async.bulk.wait_group.read covers it before this arrive
// STORE_UNWAITED: <stdin>:148:13: error: 'ws.tma_store' op breaks the protocol rule 'balance': stores (TMA) from slot 0 of ring 3 for iteration 0 without first waiting on the full barrier of channel 2 for it
// C_OVER_RINGS: <stdin>:48:19: error: 'ws.mma' op breaks the protocol rule 'race': with 1 tile of 1 iteration, in the compute partition (warps 0-3), this op uses ring 0, whose memory ring 3 shares, while the compute partition (warps 4-7) may access ring 3 at the same time (at 84:11): nothing orders them
// BIAS_RELEASED_EARLY: <stdin>:75:17: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 0 of ring 2 for iteration 0 after this partition already released it with an arrive on the empty barrier
// BIAS_NO_FENCE: <stdin>:75:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy (the TMA refill at 123:13) after a generic-proxy read of it (ws.read_slot at 74:17) with no fence.proxy.async of shared memory (kind async, or async.shared of the CTA or cluster) in between
// BIAS_UNWAITED: <stdin>:73:17: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 0 of ring 2 for iteration 0 without first waiting on the full barrier of channel 1 for it
// BIAS_COUNT_STUCK: <stdin>:122:13: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 1 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// TILE_BOUNDS: <stdin>:136:17: error: 'scf.for' op cannot be checked: its bounds differ from those of the other partitions' loops and are not computed from them, so the check cannot pair their iterations
// K_BOUNDS: <stdin>:111:19: error: 'scf.for' op cannot be checked: its bounds differ from those of the other partitions' loops and are not computed from them, so the check cannot pair their iterations
// REUSE: remark: protocol proved: 3 channel(s), 4 ring(s), tile counts 0 to 4, K trip counts 0 to 8, 5445 states explored (one interleaving per trip count) and 46620 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// REUSE_STATES: remark: protocol proved: 3 channel(s), 4 ring(s), tile counts 0 to 4, K trip counts 0 to 8, 52093 states explored (every interleaving, state by state); no deadlock, race, miscount or register overrun
// REUSE_UNGATED: <stdin>:87:11: error: 'ws.write_slot' op breaks the protocol rule 'race': with 2 tiles of 1 iteration, in the compute partition (warps 0-3), this op uses ring 3, whose memory ring 0 shares, while the compute partition (warps 4-7) may access ring 0 at the same time (at 48:19): nothing orders them
// REUSE_NO_BARRIER: <stdin>:48:19: error: 'ws.mma' op breaks the protocol rule 'race': with 1 tile of 1 iteration, in the compute partition (warps 0-3), this op uses ring 0, whose memory ring 3 shares, while the compute partition (warps 4-7) may access ring 3 at the same time (at 84:11): nothing orders them
// RACE: error: {{.*}} breaks the protocol rule 'race'
