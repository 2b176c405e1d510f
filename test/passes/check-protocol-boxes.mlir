// Broken protocols, rule boxes: every TMA copy moves the tile of the ring slot
// it fills or reads, in shape and element type (a descriptor's leading unit
// dimensions dropped; a ring held in parts takes one column part a slot).
// Each RUN edits a saved plan (test/passes/Inputs/) by hand, and
// ws-check-protocol must refuse the copy; the VALID runs swap copies of one
// box, which leave the protocol whole.

// Case SWAP, A's and B's copies swap rings: A's 128x64 box lands in B's 256x64 slots (the expected bytes still add up).
// RUN: sed '83s/{ring = 0 : i32}/{ring = 1 : i32}/;84s/{ring = 1 : i32}/{ring = 0 : i32}/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SWAP --implicit-check-not=error: --implicit-check-not=Sanitizer
// SWAP: <stdin>:83:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 1's slots hold tensor<256x64xf16>

// Case B_VIA_A, B loaded through A's descriptor: its full barrier would wait for bytes that never come.
// RUN: sed '84s/"ws.tma_load"(%arg1,\(.*\)tensor<256x64xf16>/"ws.tma_load"(%arg0,\1tensor<128x64xf16>/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=B_VIA_A --implicit-check-not=error: --implicit-check-not=Sanitizer
// B_VIA_A: <stdin>:84:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 1's slots hold tensor<256x64xf16>

// Case STORE_VIA_A, C stored through A's descriptor.
// RUN: sed '98s/"ws.tma_store"(%arg2,\(.*\)tensor<128x256xf16>/"ws.tma_store"(%arg0,\1tensor<128x64xf16>/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STORE_VIA_A --implicit-check-not=error: --implicit-check-not=Sanitizer
// STORE_VIA_A: <stdin>:98:11: error: 'ws.tma_store' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 2's slots hold tensor<128x256xf16>

// Case PERSISTENT, a persistent matmul's A and B copies swap rings.
// RUN: sed '115s/{ring = 0 : i32}/{ring = 1 : i32}/;116s/{ring = 1 : i32}/{ring = 0 : i32}/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PERSISTENT --implicit-check-not=error: --implicit-check-not=Sanitizer
// PERSISTENT: <stdin>:115:15: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 1's slots hold tensor<256x64xf16>

// Case BIAS, ping-pong's bias row loaded through A's descriptor.
// RUN: sed '152s/"ws.tma_load"(%arg3,\(.*\)tensor<1x128xf16>/"ws.tma_load"(%arg0,\1tensor<128x64xf16>/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BIAS --implicit-check-not=error: --implicit-check-not=Sanitizer
// BIAS: <stdin>:152:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 2's slots hold tensor<1x128xf16>

// Case CLUSTER, a cluster's A and B copies swap rings.
// RUN: sed '84s/{ring = 0 : i32}/{ring = 1 : i32}/;85s/{ring = 1 : i32}/{ring = 0 : i32}/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CLUSTER --implicit-check-not=error: --implicit-check-not=Sanitizer
// CLUSTER: <stdin>:84:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 1's slots hold tensor<256x64xf16>

// Case TCGEN05, sm_100a's A and B copies swap rings.
// RUN: sed '70s/{ring = 0 : i32}/{ring = 1 : i32}/;71s/{ring = 1 : i32}/{ring = 0 : i32}/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TCGEN05 --implicit-check-not=error: --implicit-check-not=Sanitizer
// TCGEN05: <stdin>:70:13: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes, but ring 1's slots hold tensor<256x64xf16>

// Case SCALE, the lagged FP8 kernel's row scales loaded through the column scales' descriptor.
// RUN: sed '162s/"ws.tma_load"(%arg2,\(.*\)tensor<1x128xf32>/"ws.tma_load"(%arg3,\1tensor<1x4xf32>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCALE --implicit-check-not=error: --implicit-check-not=Sanitizer
// SCALE: <stdin>:162:15: error: 'ws.tma_load' op breaks the protocol rule 'boxes': its descriptor moves tensor<1x4xf32> boxes, but ring 2's slots hold tensor<1x128xf32>

// Case BOX_PART, a C box stored through A's descriptor.
// RUN: sed '194s/"ws.tma_store"(%arg2,\(.*\)tensor<128x256xf16>/"ws.tma_store"(%arg0,\1tensor<128x64xf16>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOX_PART --implicit-check-not=error: --implicit-check-not=Sanitizer
// BOX_PART: <stdin>:194:13: error: 'ws.tma_store' op breaks the protocol rule 'boxes': its descriptor moves tensor<128x64xf16> boxes (a slot takes one of its 4 column parts), but ring 2's slots hold tensor<128x64xf16>

// Case ELEMENT, an f8 output stored through an f32 input's descriptor of the same shape.
// RUN: sed '89s/"ws.tma_store"(%arg6,\(.*\)tensor<16x64xf8E4M3FN>/"ws.tma_store"(%arg0,\1tensor<16x64xf32>/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ELEMENT --implicit-check-not=error: --implicit-check-not=Sanitizer
// ELEMENT: <stdin>:89:13: error: 'ws.tma_store' op breaks the protocol rule 'boxes': its descriptor moves tensor<16x64xf32> boxes, but ring 6's slots hold tensor<16x64xf8E4M3FN>

// VALID: ping-pong's A and B copies swap rings of one box (128x64): the data is wrong, the protocol is not.
// RUN: sed '143s/{ring = 0 : i32}/{ring = 1 : i32}/;144s/{ring = 1 : i32}/{ring = 0 : i32}/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null

// VALID: attention's Q loaded through K's descriptor (both 128x128).
// RUN: sed '114s/"ws.tma_load"(%arg0,/"ws.tma_load"(%arg1,/' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
