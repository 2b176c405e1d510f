// Broken protocols, rule barrier: every op that synchronizes threads is one the
// check models, or refused. The block-wide barrier (bar.sync 0: nvvm.barrier0,
// gpu.barrier) comes once, after the barrier inits and before the partitions;
// a named barrier is a constant id from 1 to 15 for a constant multiple of 32
// threads; an mbarrier, bar.arrive, raw TMA, wgmma or tcgen05 op written by
// hand is refused. Each RUN edits a saved plan (test/passes/Inputs/) by hand;
// the VALID runs move a named barrier to another free id.

// Case GPU_BARRIER, a gpu.barrier in the consumers' K loop: bar.sync 0 in one partition, which waits for the whole block.
// RUN: sed '41a\          gpu.barrier' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GPU_BARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// GPU_BARRIER: <stdin>:42:11: error: 'gpu.barrier' op breaks the protocol rule 'barrier': is a block-wide barrier (bar.sync 0: nvvm.barrier0, gpu.barrier) among the protocol's ops: it waits for every thread of the block, which the other partitions never bring; a specialized kernel has one, after the barrier inits, before the partitions

// Case BARRIER0, nvvm.barrier0 in the elementwise compute partition's loop.
// RUN: sed '31a\          nvvm.barrier0' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BARRIER0 --implicit-check-not=error: --implicit-check-not=Sanitizer
// BARRIER0: <stdin>:32:11: error: 'nvvm.barrier0' op breaks the protocol rule 'barrier': is a block-wide barrier (bar.sync 0: nvvm.barrier0, gpu.barrier) among the protocol's ops: it waits for every thread of the block, which the other partitions never bring; a specialized kernel has one, after the barrier inits, before the partitions

// Case MMA_WARP, a gpu.barrier in sm_100a's MMA warp loop.
// RUN: sed '87a\            gpu.barrier' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MMA_WARP --implicit-check-not=error: --implicit-check-not=Sanitizer
// MMA_WARP: <stdin>:88:13: error: 'gpu.barrier' op breaks the protocol rule 'barrier': is a block-wide barrier (bar.sync 0: nvvm.barrier0, gpu.barrier) among the protocol's ops: it waits for every thread of the block, which the other partitions never bring; a specialized kernel has one, after the barrier inits, before the partitions

// Case PINGPONG, a gpu.barrier in a ping-pong warpgroup's K loop.
// RUN: sed '69a\              gpu.barrier' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PINGPONG --implicit-check-not=error: --implicit-check-not=Sanitizer
// PINGPONG: <stdin>:70:15: error: 'gpu.barrier' op breaks the protocol rule 'barrier': is a block-wide barrier (bar.sync 0: nvvm.barrier0, gpu.barrier) among the protocol's ops: it waits for every thread of the block, which the other partitions never bring; a specialized kernel has one, after the barrier inits, before the partitions

// Case ID0, the consumers' named barrier before the C tile given id 0, the block's barrier.
// RUN: sed '61s/arith.constant 1 : i32/arith.constant 0 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ID0 --implicit-check-not=error: --implicit-check-not=Sanitizer
// ID0: <stdin>:63:9: error: 'nvvm.barrier' op breaks the protocol rule 'barrier': it is barrier 0 for 256 threads; a partition's named barrier is a constant id from 1 to 15 (id 0 is the block-wide barrier of nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads

// Case TURNS_ID0, attention's named barrier before O given id 0.
// RUN: sed '137s/arith.constant 1 : i32/arith.constant 0 : i32/' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TURNS_ID0 --implicit-check-not=error: --implicit-check-not=Sanitizer
// TURNS_ID0: <stdin>:139:9: error: 'nvvm.barrier' op breaks the protocol rule 'barrier': it is barrier 0 for 256 threads; a partition's named barrier is a constant id from 1 to 15 (id 0 is the block-wide barrier of nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads

// Case ID16, a named barrier id past the block's 16.
// RUN: sed '61s/arith.constant 1 : i32/arith.constant 16 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ID16 --implicit-check-not=error: --implicit-check-not=Sanitizer
// ID16: <stdin>:63:9: error: 'nvvm.barrier' op breaks the protocol rule 'barrier': it is barrier 16 for 256 threads; a partition's named barrier is a constant id from 1 to 15 (id 0 is the block-wide barrier of nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads

// Case COUNT, a named barrier for 100 threads: no whole warps.
// RUN: sed '62s/arith.constant 256 : i32/arith.constant 100 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT --implicit-check-not=error: --implicit-check-not=Sanitizer
// COUNT: <stdin>:63:9: error: 'nvvm.barrier' op breaks the protocol rule 'barrier': it is barrier 1 for 100 threads; a partition's named barrier is a constant id from 1 to 15 (id 0 is the block-wide barrier of nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads

// Case RUNTIME_ID, a named barrier whose id is computed at run time.
// RUN: sed '63s/id = %c1_i32_2/id = %5/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RUNTIME_ID --implicit-check-not=error: --implicit-check-not=Sanitizer
// RUNTIME_ID: <stdin>:63:9: error: 'nvvm.barrier' op breaks the protocol rule 'barrier': its id or thread count is not a constant; a partition's named barrier is a constant id from 1 to 15 (id 0 is the block-wide barrier of nvvm.barrier0 and gpu.barrier) for a constant multiple of 32 threads

// Case BAR_ARRIVE, a bar.arrive written by hand.
// RUN: sed '63a\        nvvm.barrier.arrive id = %c1_i32_2 number_of_threads = %c256_i32_3' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAR_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer
// BAR_ARRIVE: <stdin>:64:9: error: 'nvvm.barrier.arrive' op breaks the protocol rule 'barrier': it synchronizes threads or moves shared memory outside the ws protocol ops the check follows (ws.wait, ws.arrive, ws.tma_load and the others ws-specialize writes, nvvm.barrier0, named barriers); a specialized kernel takes none

// Case MBARRIER, an mbarrier arrive written by hand.
// RUN: sed '41a\          %mp = llvm.mlir.zero : !llvm.ptr<3>\n          %mt = nvvm.mbarrier.arrive %mp : !llvm.ptr<3> -> i64' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MBARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// MBARRIER: <stdin>:43:17: error: 'nvvm.mbarrier.arrive' op breaks the protocol rule 'barrier': it synchronizes threads or moves shared memory outside the ws protocol ops the check follows (ws.wait, ws.arrive, ws.tma_load and the others ws-specialize writes, nvvm.barrier0, named barriers); a specialized kernel takes none

// VALID: the consumers' named barrier on id 7 instead of 1.
// RUN: sed '61s/arith.constant 1 : i32/arith.constant 7 : i32/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null

// VALID: attention's on id 15, the last.
// RUN: sed '137s/arith.constant 1 : i32/arith.constant 15 : i32/' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
