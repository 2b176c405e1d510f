// Broken protocols, rule balance: a slot is accessed between the wait that takes it and the arrive that hands it on; every phase a wait needs gets its arrivals on every path.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case DROPPED_ARRIVE, the compute partition's release of channel 0 deleted: the load partition waits for it.
// RUN: sed '/"ws.arrive"(%7#0) {barrier = "empty"/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DROPPED_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case DROPPED_WAIT, the load partition's wait for an empty slot deleted.
// RUN: sed '/"ws.wait"(%13#0, %13#1) {barrier = "empty", channel = 0/d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DROPPED_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case READ_AFTER_RELEASE, the compute partition releases the slot before it reads it.
// RUN: sed -e '/"ws.arrive"(%7#0) {barrier = "empty"/d' -e '/"ws.wait"(%7#0, %7#1)/a\          "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=READ_AFTER_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case ARRIVE_IN_RUNTIME_IF, the release under an scf.if on the block index.
// RUN: sed 's/^\(          \)"ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()/\1%odd = arith.cmpi ult, %0, %c4_i32 : i32\n\1scf.if %odd {\n\1  "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n\1}/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARRIVE_IN_RUNTIME_IF --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case ARRIVE_IN_EVEN_IF, the release under an scf.if that holds on even iterations only.
// RUN: sed 's/^\(          \)"ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()/\1%c2 = arith.constant 2 : i32\n\1%r = arith.remui %arg5, %c2 : i32\n\1%even = arith.cmpi eq, %r, %c0_i32 : i32\n\1scf.if %even {\n\1  "ws.arrive"(%7#0) {barrier = "empty", channel = 0 : i32} : (i32) -> ()\n\1}/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARRIVE_IN_EVEN_IF --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case ZERO_TRIP_SKIPS_ARRIVE, the epilogue's publish guarded by the n >= 1 test: a zero-trip K loop skips it and the store partition waits forever.
// RUN: sed 's/^\(        \)"ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()/\1scf.if %9 {\n\1  "ws.arrive"(%11#0) {barrier = "full", channel = 1 : i32} : (i32) -> ()\n\1}/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ZERO_TRIP_SKIPS_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer

// DROPPED_ARRIVE: <stdin>:56:13: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition (warp 4, 1 thread) waits on the empty barrier of channel 0 for iteration 4, which needs the arrivals of iteration 0, but no partition arrives on it then (with 5 iterations): an arrive is missing or skipped on this path
// DROPPED_WAIT: <stdin>:58:13: error: 'ws.tma_load' op breaks the protocol rule 'balance': loads (TMA) into slot 0 of ring 0 for iteration 0 without first waiting on the empty barrier of channel 0 for it
// READ_AFTER_RELEASE: <stdin>:34:16: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 0 of ring 0 for iteration 0 after this partition already released it with an arrive on the empty barrier
// ARRIVE_IN_RUNTIME_IF: <stdin>:37:11: error: 'scf.if' op breaks the protocol rule 'balance': its condition depends on a value known only at run time (a kernel argument, a block index, a tile), so the protocol ops under it may run on some paths and not on others
// ARRIVE_IN_EVEN_IF: <stdin>:40:13: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 0 skip iteration 1 (this one is for iteration 2): the arrive is not on every path (an scf.if around it?)
// ZERO_TRIP_SKIPS_ARRIVE: <stdin>:99:11: error: 'ws.wait' op breaks the protocol rule 'balance': the store partition (warp 9, 1 thread) waits on the full barrier of channel 1 for iteration 0, which needs the arrivals of iteration 0, but no partition arrives on it then (with 0 iterations): an arrive is missing or skipped on this path
