// Broken protocols, rule align: every mbarrier on 8 bytes; every ring at its
// row's alignment, a power of two that covers its TMA boxes (128 bytes, and
// 8 rows of the swizzle span for a swizzled box: 1024 for 128), its slots a
// multiple of it apart; tensor memory allocated in a power of two from 32
// columns to the SM's 512 that holds its buffers, its address word on 4 bytes.
// Each RUN edits a saved plan's tables (test/passes/Inputs/) by hand and
// ws-check-protocol must refuse it at the kernel; ws-pipeline stage=lower
// refuses it too, before any PTX.

// Case BARRIER, the add's empty barriers of channel 0 moved by 4 bytes.
// RUN: sed '5s/empty = 81952 : i32/empty = 81956 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUN: sed '5s/empty = 81952 : i32/empty = 81956 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --ws-pipeline=stage=lower --emit=ptx -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// BARRIER: error: 'gpu.func' op breaks the protocol rule 'align': the empty barriers of channel 0 start at byte 81956; an mbarrier is 8 bytes on an 8-byte boundary

// Case SWIZZLE, the matmul's A ring (128-byte swizzle) at the 16-byte
// alignment of a plain copy.
// RUN: sed '5s/align = 1024 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384/align = 16 : i32, channel = 0 : i32, offset = 0 : i32, slot_bytes = 16384/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SWIZZLE --implicit-check-not=error: --implicit-check-not=Sanitizer
// SWIZZLE: error: 'gpu.func' op breaks the protocol rule 'align': ring 0 is aligned to 16 bytes; its TMA boxes (swizzle 128) need a power of two of at least 1024

// Case OFFSET, the matmul's B ring moved to byte 65552: off its 1024.
// RUN: sed '5s/align = 1024 : i32, channel = 0 : i32, offset = 65536 : i32/align = 1024 : i32, channel = 0 : i32, offset = 65552 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFFSET --implicit-check-not=error: --implicit-check-not=Sanitizer
// OFFSET: error: 'gpu.func' op breaks the protocol rule 'align': ring 1 starts at byte 65552 with slots 32768 bytes apart; both must be multiples of its alignment, 1024

// Case PLAIN, the add's plain ring at 64 bytes: TMA needs 128.
// RUN: sed '5s/align = 128 : i32, channel = 0 : i32, offset = 32768 : i32/align = 64 : i32, channel = 0 : i32, offset = 32768 : i32/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAIN --implicit-check-not=error: --implicit-check-not=Sanitizer
// PLAIN: error: 'gpu.func' op breaks the protocol rule 'align': ring 1 is aligned to 64 bytes; its TMA boxes (swizzle 0) need a power of two of at least 128

// Case TMEM_COLUMNS, sm_100a's accumulator allocated 1024 columns: twice the SM's.
// RUN: sed 's/allocated = 256 : i32, channel = 2 : i32/allocated = 1024 : i32, channel = 2 : i32/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMEM_COLUMNS --implicit-check-not=error: --implicit-check-not=Sanitizer
// TMEM_COLUMNS: error: 'gpu.func' op breaks the protocol rule 'align': tensor memory is allocated 1024 columns for buffers of 256; tcgen05.alloc takes a power of two from 32 to the SM's 512, and the buffers must fit

// Case TMEM_ADDRESS, the word tcgen05.alloc writes moved off 4 bytes.
// RUN: sed 's/address = 196704 : i32, allocated = 256/address = 196706 : i32, allocated = 256/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TMEM_ADDRESS --implicit-check-not=error: --implicit-check-not=Sanitizer
// TMEM_ADDRESS: error: 'gpu.func' op breaks the protocol rule 'align': tcgen05.alloc writes tensor memory's address at byte 196706; the word is on a 4-byte boundary

// A wider alignment than the boxes need is valid: the add's rings at 1024.
// RUN: sed '5s/align = 128 : i32/align = 1024 : i32/g' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
