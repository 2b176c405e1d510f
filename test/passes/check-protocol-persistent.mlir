// The persistent matmul's protocol (integration/matmul_persistent.mlir, saved
// specialized in Inputs/check-protocol-persistent.mlir): proved over tile counts
// and K trip counts, and broken by hand in each way below, each rejected at
// the op that breaks its rule.
// The saved plan is proved: tile counts 0 to 4 (2 x the hand-off's depth + 2),
// K trip counts 0 to 8 (2 x the ring depth + 2); another interleaving and the
// state-by-state search agree.
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=7})' -o /dev/null
// RUN: ws-opt %S/Inputs/check-protocol-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=3 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES

// Case PHASE_RESET, the load warp's tile loop starts each tile's K count from 0 again (a phase reset at a tile boundary).
// RUN: sed '109s/scf.yield %29 : i32/scf.yield %c0_i32_3 : i32/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PHASE_RESET --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case K_COUNT_LOST, the consumers' tile loop drops the K count (each tile starts at the previous tile's start).
// RUN: sed '78s/scf.yield %13#0, %18/scf.yield %arg7, %18/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K_COUNT_LOST --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_COUNT_STUCK, the consumers' tile count is not advanced: every tile hands off C in slot phase 0.
// RUN: sed '78s/scf.yield %13#0, %18/scf.yield %13#0, %arg8/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_COUNT_STUCK --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case DOUBLE_RELEASE, the K loop releases the slot before its step from K count 1 on, not from the tile's first step + 1: the previous tile's last slot is released twice.
// RUN: sed '51s/uge, %arg10, %21/uge, %arg10, %c1_i32_5/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DOUBLE_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case NO_TILE_DRAIN, the wgmma.wait_group 0 after the K loop deleted: the tile's last slot is released while wgmma reads it.
// RUN: sed '61d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_TILE_DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_NOT_WAITED, the consumers write C without waiting for the store warp to free it.
// RUN: sed '72d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case HANDOFF_EARLY, the store warp releases the C slot before its TMA store has read it (the bulk wait_group.read deleted).
// RUN: sed '133d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HANDOFF_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case STORE_UNWAITED, the store warp stores C without waiting for the consumers to publish it.
// RUN: sed '130d' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORE_UNWAITED --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case C_OVER_RINGS, the C slot moved over the A ring: the producer is already filling it for the next tile.
// RUN: sed 's/channel = 1 : i32, offset = 147456/channel = 1 : i32, offset = 0/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=C_OVER_RINGS --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case TILE_BOUNDS, the store warp's tile loop over other bounds than the other partitions'.
// RUN: sed '118s/%6 to %4 step %7/%6 to %5 step %7/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TILE_BOUNDS --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case K_BOUNDS, the load warp's K loop over other bounds than the consumers'.
// RUN: sed '99s/to %arg5/to %arg4/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K_BOUNDS --implicit-check-not=error: --implicit-check-not=Sanitizer

// PROVED: remark: protocol proved: 2 channel(s), 3 ring(s), tile counts 0 to 4, K trip counts 0 to 8, 4455 states explored (one interleaving per trip count) and 6480 happens-before checks covering every other; no deadlock, race, miscount or register overrun
// STATES: remark: protocol proved: 2 channel(s), 3 ring(s), tile counts 0 to 3, K trip counts 0 to 3, 13234 states explored (every interleaving, state by state); no deadlock, race, miscount or register overrun
// PHASE_RESET: <stdin>:101:15: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 0 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// K_COUNT_LOST: <stdin>:44:13: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the full barrier of channel 0 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// C_COUNT_STUCK: <stdin>:72:11: error: 'ws.wait' op breaks the protocol rule 'phases': is this partition's next wait on the empty barrier of channel 1 since the start (iteration 1), but its slot and phase are those of iteration 0: slot = i mod depth and the phase flip every depth iterations do not hold
// DOUBLE_RELEASE: <stdin>:55:15: error: 'ws.arrive' op breaks the protocol rule 'counts': arrives on the empty barrier of channel 0 for iteration 0 a second time: that phase gets more arrivals than its count
// NO_TILE_DRAIN: <stdin>:67:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 46:19 that reads it may still run: no wgmma.wait_group covers it before this arrive
// C_NOT_WAITED: <stdin>:72:11: error: 'ws.write_slot' op breaks the protocol rule 'balance': writes slot 0 of ring 2 for iteration 0 without first waiting on the empty barrier of channel 1 for it
// HANDOFF_EARLY: <stdin>:138:15: error: 'ws.arrive' op breaks the protocol rule 'bulk-wait': releases slot 0 of channel 1 (iteration 0) while the TMA store at 131:13 may still read it: no cp.async.bulk.wait_group.read covers it before this arrive
// STORE_UNWAITED: <stdin>:130:13: error: 'ws.tma_store' op breaks the protocol rule 'balance': stores (TMA) from slot 0 of ring 2 for iteration 0 without first waiting on the full barrier of channel 1 for it
// C_OVER_RINGS: <stdin>:73:11: error: 'ws.write_slot' op breaks the protocol rule 'race': with 1 tile of 1 iteration, in the compute partition (warps 0-3), this op uses ring 2, whose memory ring 0 shares, while the compute partition (warps 4-7) may still access ring 0 (at 61:11)
// TILE_BOUNDS: <stdin>:118:17: error: 'scf.for' op cannot be checked: its bounds differ from those of the other partitions' loops, so the check cannot pair their iterations
// K_BOUNDS: <stdin>:99:19: error: 'scf.for' op cannot be checked: its bounds differ from those of the other partitions' loops, so the check cannot pair their iterations
