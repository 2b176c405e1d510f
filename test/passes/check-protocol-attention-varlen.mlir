// The varlen flash-attention protocol (integration/attention/variants.py's
// att_f16_d128_varlen, saved specialized in
// Inputs/check-protocol-attention-varlen.mlir): the trip count of each block
// comes from its sequence's offsets, read from a kernel array before the
// partitions split, so every partition loops to the same bound, and a block
// past its sequence's end runs none (trip count 0, which the proof covers).
// Proved by both methods, and broken by hand below.
// RUN: ws-opt %S/Inputs/check-protocol-attention-varlen.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-attention-varlen.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 8
// STATES: remark: protocol proved: 4 channel(s), 4 ring(s), trip counts 0 to 8, {{[0-9]+}} states explored (every interleaving, state by state)

// Case DEAD_BLOCK_RELEASE, the consumers release the last K/V slot after the
// loop even when it ran no step (a block past its sequence's end): they
// arrive for iteration -1.
// RUN: sed -e '145s/arith.cmpi uge, %25#0, %c1_i32/arith.cmpi uge, %c1_i32, %c1_i32/' %S/Inputs/check-protocol-attention-varlen.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEAD_BLOCK_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// DEAD_BLOCK_RELEASE: <stdin>:149:11: error: 'ws.arrive' op breaks the protocol rule 'phases': is this partition's first arrive on the empty barrier of channel 1 since the start (iteration 0), but its slot and phase are those of iteration 4294967295

// Case TRIP_MISMATCH, the load warp loops over the whole sequence while the
// consumers stop at the block's bound (none for a dead block): the
// iterations cannot be paired, and the check says so.
// RUN: sed -e '179s/to %16 step/to %9 step/' %S/Inputs/check-protocol-attention-varlen.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRIP_MISMATCH --implicit-check-not=error: --implicit-check-not=Sanitizer
// TRIP_MISMATCH: <stdin>:179:17: error: 'scf.for' op cannot be checked: its bounds differ from those of the other partitions' loops and are not computed from them, so the check cannot pair their iterations
