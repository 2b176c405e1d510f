// The block-scaled FP8 protocol (integration/matmul/fp8.py's "blocks",
// saved specialized in Inputs/check-protocol-block-scales.mlir: A, B and
// both scale tiles through one ring, each K block's product a wgmma into a
// fresh accumulator that the consumers scale with the scale tiles they read
// from the slot and promote): proved by both methods, and broken by hand in
// each way below, each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-block-scales.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-block-scales.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 2 channel(s), 5 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 2 channel(s), 5 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)

// Case SCALE_AFTER_RELEASE, the consumers give each step's slot back as soon
// as its wgmma is done (the current slot, not the previous one; the release
// after the loop gone) and read B's column scales from it afterwards: the
// load warp may already be refilling it.
// RUN: sed -e '41{h;d}' -e '42{H;d}' -e '46s/%c1_i32_6 : i32/%c0_i32 : i32/' \
// RUN:     -e '48s/arith.subi %arg7, %c1_i32_6/arith.addi %arg7, %c0_i32/' -e '52G' -e '67d' \
// RUN:     %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCALE_AFTER_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed -e '41{h;d}' -e '42{H;d}' -e '46s/%c1_i32_6 : i32/%c0_i32 : i32/' \
// RUN:     -e '48s/arith.subi %arg7, %c1_i32_6/arith.addi %arg7, %c0_i32/' -e '52G' -e '67d' \
// RUN:     %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCALE_AFTER_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// SCALE_AFTER_RELEASE: <stdin>:51:17: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 0 of ring 3 for iteration 0 after this partition already released it with an arrive on the empty barrier

// Case PROMOTION_IN_FLIGHT, the promotion does not wait for the block's
// wgmma (its wait_group 0 is gone): the product it scales is not there yet
// (and the previous slot is given back while the wgmma that reads it may
// still run).
// RUN: sed -e '44d' %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PROMOTION_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// PROMOTION_IN_FLIGHT: <stdin>:52:17: error: 'arith.mulf' op breaks the protocol rule 'wgmma-wait': reads in registers the product of the ws.mma at 38:17 while its wgmma may still write it: no wgmma.wait_group retires that wgmma's group before this read
