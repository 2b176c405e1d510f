// A matmul whose A is given K x M (transpose_a: wgmma reads the slot
// M-major; Inputs/matmul-ta.mlir, saved specialized in
// Inputs/check-protocol-transpose-a.mlir): the transposed read is a wgmma
// read of its ring like any other, proved, and broken by hand, each edit
// refused by its rule.
// RUN: ws-opt %S/Inputs/check-protocol-transpose-a.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-transpose-a.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)

// Case LAGGED_TOO_FAR, the K loop's wait keeps two wgmma groups in flight,
// so the previous step's transposed A is released while its wgmma may
// still read it.
// RUN: sed -e '40s/group.sync.aligned 1/group.sync.aligned 2/' %S/Inputs/check-protocol-transpose-a.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAGGED_TOO_FAR --implicit-check-not=error: --implicit-check-not=Sanitizer
// LAGGED_TOO_FAR: <stdin>:46:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 38:17 that reads it may still run

// Case LAST_NOT_WAITED, the wait after the loop is gone: the last slot goes
// back while its wgmma may still read it.
// RUN: sed -e '52d' %S/Inputs/check-protocol-transpose-a.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol{method=states})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAST_NOT_WAITED --implicit-check-not=error: --implicit-check-not=Sanitizer
// LAST_NOT_WAITED: <stdin>:57:11: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 38:17 that reads it may still run

// Case HALF_EXPECTED, the load warp expects only B's bytes, not A's two
// boxes of 64 columns of M.
// RUN: sed -e '77s/32768/16384/' %S/Inputs/check-protocol-transpose-a.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=HALF_EXPECTED --implicit-check-not=error: --implicit-check-not=Sanitizer
// HALF_EXPECTED: <stdin>:77:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 16384 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 32768

// Case WRONG_RING, A's K x M box is copied into B's ring, whose slots hold
// N x K tiles.
// RUN: sed -e '78s/{ring = 0 : i32}/{ring = 1 : i32}/' %S/Inputs/check-protocol-transpose-a.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG_RING --implicit-check-not=error: --implicit-check-not=Sanitizer
// WRONG_RING: <stdin>:78:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<64x128xf16> boxes, but ring 1's slots hold tensor<128x64xf16>
