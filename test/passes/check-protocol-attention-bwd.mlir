// The attention backward's dK/dV protocol (python/ws/kernels/attention_bwd.mlir's
// @attention_dkdv, saved specialized in Inputs/check-protocol-attention-bwd.mlir:
// K and V loaded once before the loop, Q, dO, lse and Delta through one ring
// a step, four wgmmas a step (S^T and dP^T from shared memory, dV and dK
// from registers) on two warpgroups taking turns, dK and dV stored through
// the store warp): proved by both methods, and broken by hand in twelve
// ways, each refused by its rule at the op that breaks it.
// RUN: ws-opt %S/Inputs/check-protocol-attention-bwd.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-attention-bwd.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 4 channel(s), 8 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 4 channel(s), 8 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)

// Case S_IN_FLIGHT, the wait for S^T = K Q^T is gone: the mask's select reads the scores while their wgmma may still write them.
// RUN: sed -e '95d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '95d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=S_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// S_IN_FLIGHT: <stdin>:103:17: error: 'arith.select' op breaks the protocol rule 'wgmma-wait': reads in registers the product of the ws.mma at 79:17 while its wgmma may still write it

// Case DP_IN_FLIGHT, the wait for dP^T = V dO^T is gone: dS^T = P^T (dP^T - Delta) reads it in flight.
// RUN: sed -e '116d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DP_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '116d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DP_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// DP_IN_FLIGHT: <stdin>:116:17: error: 'arith.subf' op breaks the protocol rule 'wgmma-wait': reads in registers the product of the ws.mma at 112:17 while its wgmma may still write it

// Case RELEASE_BEFORE_WAIT, the Q/dO/lse/Delta slot of the last step is released before the wait that retires that step's dV and dK wgmmas, which read its Q and dO.
// RUN: sed -e '95{h;d}' -e '103G' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE_BEFORE_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '95{h;d}' -e '103G' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE_BEFORE_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELEASE_BEFORE_WAIT: <stdin>:101:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 1 (iteration 0) while the ws.mma at 131:17 that reads it may still run

// Case STEP_NOT_WAITED, the consumers never wait for a step's Q, dO, lse and Delta to land.
// RUN: sed -e '74d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STEP_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// STEP_NOT_WAITED: <stdin>:78:17: error: 'ws.mma' op breaks the protocol rule 'balance': reads (wgmma) slot 0 of ring 2 for iteration 0 without first waiting on the full barrier of channel 1 for it

// Case EXPECT_TX, the load warp expects one row vector's bytes too few (lse's or Delta's 256).
// RUN: sed -e '188s/16896/16640/' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXPECT_TX --implicit-check-not=error: --implicit-check-not=Sanitizer
// EXPECT_TX: <stdin>:188:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 16640 bytes are expected on the full barrier of channel 1 for iteration 0, but the TMA copies that complete on it in that phase bring 16896

// Case RELEASE_FENCE, no proxy fence before a step's slot goes back: the compute warps read lse and Delta with generic loads, and TMA refills the slot.
// RUN: sed -e '101d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELEASE_FENCE: <stdin>:101:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy (the TMA refill at 188:13) after a generic-proxy read of it (ws.read_slot at 106:17)

// Case TURN_NOT_TAKEN, a warpgroup starts its dV and dK wgmmas without waiting for its turn: the other's hand-over lands in a phase that is not open.
// RUN: sed -e '129d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURN_NOT_TAKEN --implicit-check-not=error: --implicit-check-not=Sanitizer
// TURN_NOT_TAKEN: <stdin>:143:9: error: 'ws.arrive' op breaks the protocol rule 'counts': with 1 iteration, in the compute partition (warps 0-3), this arrive for iteration 2 (phase 2 of slot 0) reaches the full barrier of channel 3 while it is in phase 1

// Case STORE_FENCE, dK and dV are handed to the store warp with no proxy fence after the compute warps wrote them.
// RUN: sed -e '165d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORE_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// STORE_FENCE: <stdin>:165:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy (its reader at 205:11) after a generic-proxy write of it (ws.write_slot at 163:9)

// Case NO_DRAIN, the store warp exits while its TMA stores of dK and dV may still read shared memory.
// RUN: sed -e '209d' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_DRAIN: <stdin>:206:11: error: 'ws.tma_store' op breaks the protocol rule 'bulk-wait': may still read shared memory when its partition exits

// Case EMPTY_COUNT, the step ring's empty barrier counts one warpgroup's arrivals, not both.
// RUN: sed -e '39s/count = 256/count = 128/' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY_COUNT --implicit-check-not=error: --implicit-check-not=Sanitizer
// EMPTY_COUNT: <stdin>:152:11: error: 'ws.arrive' op breaks the protocol rule 'counts': 256 threads arrive on the empty barrier of channel 1 for iteration 0, but it was initialized with count 128

// Case PHASE, the consumers wait for the step ring's first fill in the wrong phase.
// RUN: sed -e '73s/start_phase = 0/start_phase = 1/' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PHASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PHASE: <stdin>:74:11: error: 'ws.wait' op breaks the protocol rule 'phases': a consumer waits on the full barrier from phase 0, but this wait's ws.slot_phase (at 73:19) starts at phase 1

// Case REGISTERS, the compute warpgroups ask for 256 registers a thread, past the block's pool.
// RUN: sed -e '50s/increase 240/increase 256/' %S/Inputs/check-protocol-attention-bwd.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REGISTERS --implicit-check-not=error: --implicit-check-not=Sanitizer
// REGISTERS: <stdin>:50:9: error: 'nvvm.setmaxregister' op breaks the protocol rule 'registers': the warpgroups ask for 68608 registers in all, past the block's pool of 64512
