// The FP8 flash-attention protocol (integration/attention/variants.py's
// att_e4m3_d128, saved specialized in Inputs/check-protocol-attention-fp8.mlir:
// e4m3 Q loaded once, K and V transposed through one ring of four slots, S =
// Q K^T from shared memory, O += P V with P rounded to e4m3 in registers,
// bf16 O through a ring of its own): proved by both methods, and broken by
// hand in each way below, each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-attention-fp8.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-attention-fp8.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)

// Case PV_NOT_WAITED, the last slot of K and V^T is released while the FP8
// P V wgmma (A from registers) may still read V^T: the wait after the loop
// is gone.
// RUN: sed -e '134d' %S/Inputs/check-protocol-attention-fp8.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PV_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// PV_NOT_WAITED: <stdin>:139:11: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 1 (iteration 0) while the ws.mma at 121:17 that reads it may still run

// Case Q_NOT_WAITED, the consumers never wait for e4m3 Q's slot to fill.
// RUN: sed -e '49d' %S/Inputs/check-protocol-attention-fp8.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=Q_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// Q_NOT_WAITED: <stdin>:165:11: error: 'ws.wait' op breaks the protocol rule 'deadlock': with 0 iterations, in the load partition

// Case VT_UNCOUNTED, the slot's expected bytes leave out V^T's tile (one
// byte an element: 16384 of the 32768 that land).
// RUN: sed -e '172s/bytes = 32768/bytes = 16384/' %S/Inputs/check-protocol-attention-fp8.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VT_UNCOUNTED --implicit-check-not=error: --implicit-check-not=Sanitizer
// VT_UNCOUNTED: <stdin>:172:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 16384 bytes are expected on the full barrier of channel 1 for iteration 0, but the TMA copies that complete on it in that phase bring 32768 (ring 1: 16384 at 173:13, ring 2: 16384 at 174:13)

// Case VT_NOT_LOADED, V^T's copy is gone: the slot's barrier waits for bytes
// that never come.
// RUN: sed -e '174d' %S/Inputs/check-protocol-attention-fp8.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VT_NOT_LOADED --implicit-check-not=error: --implicit-check-not=Sanitizer
// VT_NOT_LOADED: <stdin>:172:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 32768 bytes are expected on the full barrier of channel 1 for iteration 0, but the TMA copies that complete on it in that phase bring 16384 (ring 1: 16384 at 173:13)
