// The sm_100a matmul protocol (integration/matmul.mlir and
// matmul_persistent.mlir retargeted, saved specialized in
// Inputs/check-protocol-tcgen05*.mlir: a TMA warp, one MMA warp whose elected
// thread issues tcgen05.mma and commits each K step to the slot's empty
// barrier and the tile to the accumulator's full barrier, epilogue warpgroups
// reading tensor memory, the allocation before the first block-wide barrier
// and the dealloc after the last): proved, and broken by hand in each way
// below, each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-tcgen05.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-tcgen05.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: ws-opt %S/Inputs/check-protocol-tcgen05-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// PROVED: remark: protocol proved: 3 channel(s), 3 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 3 channel(s), 3 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)
// PERSISTENT: remark: protocol proved: 4 channel(s), 4 ring(s), tile counts 0 to 6, K trip counts 0 to 8

// Case WRONG_BARRIER, the MMA warp commits each K step to the slot's full barrier instead of its empty one: the load warp's expect-tx phase gets a second arrival.
// RUN: sed -e '92s/barrier = "empty"/barrier = "full"/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG_BARRIER --implicit-check-not=error: --implicit-check-not=Sanitizer
// WRONG_BARRIER: <stdin>:69:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'counts': 2 threads arrive on the full barrier of channel 0 for iteration 0, but it was initialized with count 1

// Case PLAIN_ARRIVE, a K step's slot is released with a plain mbarrier arrive, not tcgen05.commit: the load warp could refill it while the MMA reads it.
// RUN: sed -e '92s/ws.commit/ws.arrive/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAIN_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PLAIN_ARRIVE: <stdin>:92:13: error: 'ws.arrive' op breaks the protocol rule 'tcgen05-commit': hands slot 0 of ring 0 (iteration 0) on with a plain arrive on the empty barrier of channel 0, but the tcgen05.mma at 91:13 that reads it runs asynchronously

// Case ACC_PLAIN, the accumulator is handed to the epilogue with a plain arrive: it could read it before the MMAs finish.
// RUN: sed -e '97s/ws.commit/ws.arrive/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ACC_PLAIN --implicit-check-not=error: --implicit-check-not=Sanitizer
// ACC_PLAIN: <stdin>:97:11: error: 'ws.arrive' op breaks the protocol rule 'tcgen05-commit': hands tensor-memory accumulator buffer 0 (iteration 0) on with a plain arrive on the full barrier of channel 2, but the tcgen05.mma at 91:13 that writes it runs asynchronously

// Case NO_FENCE_AFTER, the epilogue reads tensor memory right after its wait, with no tcgen05.fence::after_thread_sync.
// RUN: sed -e '45d' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_FENCE_AFTER --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_FENCE_AFTER: <stdin>:46:15: error: 'ws.tmem_load' op breaks the protocol rule 'tcgen05-fence': reads tensor-memory accumulator buffer 0 after the wait on the full barrier of channel 2 at 44:9 with no tcgen05.fence::after_thread_sync in between

// Case NO_FENCE_BEFORE, the epilogue hands the buffer back with no tcgen05.fence::before_thread_sync after its tcgen05.ld.
// RUN: sed -e '48d' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_FENCE_BEFORE --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_FENCE_BEFORE: <stdin>:48:9: error: 'ws.arrive' op breaks the protocol rule 'tcgen05-fence': hands accumulator buffer 0 back after the tcgen05.ld at 47:15 with no tcgen05.fence::before_thread_sync in between

// Case MMA_NO_FENCE, the MMA warp writes the buffer right after waiting for it to be empty, with no fence::after_thread_sync.
// RUN: sed -e '86d' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MMA_NO_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// MMA_NO_FENCE: <stdin>:90:13: error: 'ws.tc_mma' op breaks the protocol rule 'tcgen05-fence': writes tensor-memory accumulator buffer 0 after the wait on the empty barrier of channel 2 at 85:11 with no tcgen05.fence::after_thread_sync in between

// Case DEALLOC_EARLY, the MMA warp frees tensor memory right after its last commit, before the epilogue's last tcgen05.ld.
// RUN: sed -e '118d' -e '97a "ws.tmem_dealloc"() : () -> ()' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEALLOC_EARLY --implicit-check-not=error: --implicit-check-not=Sanitizer
// DEALLOC_EARLY: <stdin>:98:1: error: 'ws.tmem_dealloc' op breaks the protocol rule 'tmem-dealloc': frees tensor memory before a block-wide barrier that every thread reaches after its last tensor-memory access

// Case NO_DEALLOC, tensor memory is never freed.
// RUN: sed -e '118d' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_DEALLOC --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_DEALLOC: <stdin>:3:5: error: 'gpu.func' op breaks the protocol rule 'tmem-dealloc': never frees its tensor memory after the last block-wide barrier

// Case NO_ALLOC_FENCE, no tcgen05.fence::before_thread_sync between the allocation and the barrier that publishes it.
// RUN: sed -e '34d' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_ALLOC_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_ALLOC_FENCE: <stdin>:32:9: error: 'ws.tmem_alloc' op breaks the protocol rule 'tcgen05-fence': is not followed by tcgen05.fence::before_thread_sync

// Case ONE_THREAD_ALLOC, one thread, not a whole warp, allocates (tcgen05.alloc is .sync.aligned).
// RUN: sed -e '30s/%5, %c9_i32/%4, %c9_i32/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE_THREAD_ALLOC --implicit-check-not=error: --implicit-check-not=Sanitizer
// ONE_THREAD_ALLOC: <stdin>:32:9: error: 'ws.tmem_alloc' op breaks the protocol rule 'tmem-alloc': is run by 1 thread(s); tcgen05.alloc is .sync.aligned: exactly one whole warp runs it

// Case ACC_REUSED, persistent: the MMA warp starts a tile in an accumulator buffer without waiting for the epilogue to hand it back.
// RUN: sed -e '127d' %S/Inputs/check-protocol-tcgen05-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ACC_REUSED --implicit-check-not=error: --implicit-check-not=Sanitizer
// ACC_REUSED: <stdin>:132:15: error: 'ws.tc_mma' op breaks the protocol rule 'balance': writes (tcgen05.mma) tensor-memory accumulator buffer 0 for iteration 0 without first waiting on the empty barrier of channel 3 for it

// Case RELAXED_ALLOC, the block-wide barrier after the inits replaced by a cluster barrier (a cluster of one) whose arrive is relaxed: it does not publish the address tcgen05.alloc writes before it.
// RUN: sed -e '36s/.*/      nvvm.cluster.arrive.relaxed {aligned}/' -e '36a\      nvvm.cluster.wait {aligned}' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_ALLOC --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_ALLOC: <stdin>:36:7: error: 'nvvm.cluster.arrive.relaxed' op breaks the protocol rule 'init': is relaxed: it publishes the barrier inits (the nvvm.fence.mbarrier.init before it orders them) but not the tensor-memory address ws.tmem_alloc writes before it: this arrive must release (nvvm.cluster.arrive)

// Case EARLY_HANDBACK, persistent: the epilogue hands the buffer back before it reads it.
// RUN: sed -e '59d' -e '54a "ws.arrive"(%15#0) {barrier = "empty", channel = 3 : i32} : (i32) -> ()' %S/Inputs/check-protocol-tcgen05-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY_HANDBACK --implicit-check-not=error: --implicit-check-not=Sanitizer
// EARLY_HANDBACK: <stdin>:58:17: error: 'ws.tmem_load' op breaks the protocol rule 'balance': reads (tcgen05.ld) tensor-memory accumulator buffer 0 for iteration 0 after this partition already released it with an arrive on the empty barrier
