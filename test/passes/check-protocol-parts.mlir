// Broken protocols of a C tile handed over box by box (store-boxes), rules
// parts and bulk-wait. Each RUN edits a saved plan
// (Inputs/check-protocol-store-boxes.mlir: a persistent 128x256 matmul whose
// C ring holds one of the tile's 4 boxes a slot) by hand, and
// ws-check-protocol must reject it at the op that breaks the rule; the plan
// itself is proved (OK).

// RUN: ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' %S/Inputs/check-protocol-store-boxes.mlir -o /dev/null

// Case PART, the last box written as part 2: slot 3 would be stored with
// whatever an earlier tile left there.
// RUN: sed '95s/part = 3/part = 2/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PART --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case DRAIN, the second box's wait for its store's read deleted: its slot
// would be released to the compute warps while the TMA store may still read it.
// RUN: sed '214d' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer

// PART: <stdin>:95:11: error: 'ws.write_slot' op breaks the protocol rule 'parts': writes part 2 of its tile in iteration 3 of ring 2, which holds its tile in 4 parts: part 3 goes there (part j of a tile in iteration n * 4 + j), the part the store of that slot takes
// DRAIN: <stdin>:219:15: error: 'ws.arrive' op breaks the protocol rule 'bulk-wait': releases slot 2 of channel 1 (iteration 2) while the TMA store at 229:13 may still read it: no cp.async.bulk.wait_group.read covers it before this arrive
