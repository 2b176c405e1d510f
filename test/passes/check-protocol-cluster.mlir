// The protocol of a cluster kernel (integration/matmul/variants.py's
// mm_128x256x64_w8_c2x1: tiles in clusters of two along x sharing B, and
// pmm_128x128x64_w8_c2: persistent and ping-pong over pairs of M tiles,
// saved specialized in Inputs/check-protocol-cluster*.mlir). The check runs
// both CTAs of the cluster side by side: each load warp multicasts half of
// B into both CTAs' slots (each copy completing on its target's full
// barrier), each consumer warp releases a K slot on both CTAs' empty
// barriers, the barrier inits are published by a cluster barrier and every
// thread ends at one. Proved (by happens-before, with two other seeds, and
// state by state up to 3 iterations), and broken by hand in each way below,
// each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-cluster.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-cluster.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=7 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-cluster.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=42 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-cluster.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=3 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: ws-opt %S/Inputs/check-protocol-cluster-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// PROVED: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 10, the 2 CTAs of a 2x1 cluster together
// STATES: remark: protocol proved: 2 channel(s), 3 ring(s), trip counts 0 to 3, the 2 CTAs of a 2x1 cluster together, {{[0-9]+}} states explored (every interleaving, state by state)
// PERSISTENT: remark: protocol proved: 3 channel(s), 3 ring(s), tile counts 0 to 6, K trip counts 0 to 10, the 2 CTAs of a 2x1 cluster together

// Case NOT_TO_PEER, a K slot is released on the own CTA's empty barrier only, inside the loop: the peer's load warp, which also writes into the slot, never hears of it.
// RUN: sed -e '47s/, cluster}/}/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOT_TO_PEER --implicit-check-not=error: --implicit-check-not=Sanitizer
// NOT_TO_PEER: <stdin>:59:11: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 0 of CTA 1 skip iteration 0 (this one is for iteration 1): the arrive is not on every path (an scf.if around it?), or not to every CTA that needs it (a cluster channel's release goes to each: ws.arrive {cluster})

// Case PEER_RACE, every release is local and the counts agree with that: the peer's multicast into a slot no longer waits for this CTA's readers.
// RUN: sed -e '22s/count = 16/count = 256/' -e '47s/, cluster}/}/' -e '59s/, cluster}/}/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PEER_RACE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PEER_RACE: <stdin>:39:17: error: 'ws.mma' op breaks the protocol rule 'race': with 1 iteration, in the compute partition of CTA 1 (warps 0-3), this op reads slot 0 of ring 0 for iteration 0 after it was released (the empty barrier of CTA 0 completed that phase), so the next write (at 84:13) may overwrite it

// Case CTA_PUBLISH, the inits are published with nvvm.barrier0: a peer's remote arrival or multicast may reach a barrier before it is initialized.
// RUN: sed -e '27s/.*/      nvvm.barrier0/' -e '28d' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CTA_PUBLISH --implicit-check-not=error: --implicit-check-not=Sanitizer
// CTA_PUBLISH: <stdin>:27:7: error: 'nvvm.barrier0' op breaks the protocol rule 'init': publishes the barrier inits to this CTA only, but the CTAs of a cluster arrive on and copy into each other's: a cluster barrier (nvvm.cluster.arrive and nvvm.cluster.wait) must, or a peer's remote arrival may reach a barrier before its init

// Case NO_EXIT_SYNC, no cluster barrier at the end: a CTA may exit while its peer still arrives on its barriers.
// RUN: sed -e '104,105d' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_EXIT_SYNC --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_EXIT_SYNC: <stdin>:3:5: error: 'gpu.func' op breaks the protocol rule 'cluster-exit': 0 of the cluster's 768 threads end with a cluster barrier (nvvm.cluster.arrive and nvvm.cluster.wait as their last ops): a CTA may exit while a peer still arrives on its barriers or copies into its slots

// Case EXIT_ARRIVE_ONLY, the last cluster barrier lacks its wait: the threads arrive but need not wait for their peers.
// RUN: sed -e '105d' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXIT_ARRIVE_ONLY --implicit-check-not=error: --implicit-check-not=Sanitizer
// EXIT_ARRIVE_ONLY: <stdin>:104:7: error: 'nvvm.cluster.arrive' op breaks the protocol rule 'cluster-sync': is a cluster barrier among the protocol's other ops: a cluster kernel has two, after the barrier inits (both halves) and as every thread's last ops, and no other

// Case RELAXED_PUBLISH, the inits published by a relaxed cluster arrive (what ws-insert-barriers emits): the nvvm.fence.mbarrier.init before it orders them, and nothing else needs publishing. Proved, for both kernels.
// RUN: sed -e '27s/arrive {aligned}/arrive.relaxed {aligned}/' %S/Inputs/check-protocol-cluster.mlir > %t.tiled.mlir
// RUN: grep -q 'nvvm.cluster.arrive.relaxed' %t.tiled.mlir
// RUN: ws-opt %t.tiled.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: sed -e '45s/arrive {aligned}/arrive.relaxed {aligned}/' %S/Inputs/check-protocol-cluster-persistent.mlir > %t.persistent.mlir
// RUN: grep -q 'nvvm.cluster.arrive.relaxed' %t.persistent.mlir
// RUN: ws-opt %t.persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERSISTENT

// Case RELAXED_UNFENCED, the relaxed arrive with the inits' fence gone: nothing orders the inits before a peer's remote arrival.
// RUN: sed -e '27s/arrive {aligned}/arrive.relaxed {aligned}/' -e '25d' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_UNFENCED --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_UNFENCED: <stdin>:27:7: error: 'nvvm.cluster.wait' op breaks the protocol rule 'init': the barrier initializations before it are not made visible with nvvm.fence.mbarrier.init

// Case RELAXED_LATE_FENCE, the inits' fence comes after the relaxed arrive: it orders nothing before it.
// RUN: sed -e '25d' -e '27s/arrive {aligned}/arrive.relaxed {aligned}/' -e '27a\      nvvm.fence.mbarrier.init' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_LATE_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_LATE_FENCE: <stdin>:26:7: error: 'nvvm.cluster.arrive.relaxed' op breaks the protocol rule 'init': is relaxed, but this thread's barrier inits before it have no nvvm.fence.mbarrier.init of its own between them and it: nothing orders them before another thread's arrival; fence them first, or release (nvvm.cluster.arrive)

// Case RELAXED_OTHER_FENCE, the inits' fence runs in another thread (tid 32) than the inits (tid 0): a fence orders its own thread's inits only.
// RUN: sed -e '24a\      }' -e '24a\      %k32 = arith.constant 32 : i32' -e '24a\      %at32 = arith.cmpi eq, %4, %k32 : i32' -e '24a\      scf.if %at32 {' -e '27s/arrive {aligned}/arrive.relaxed {aligned}/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_OTHER_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_OTHER_FENCE: <stdin>:31:7: error: 'nvvm.cluster.arrive.relaxed' op breaks the protocol rule 'init': is relaxed, but this thread's barrier inits before it have no nvvm.fence.mbarrier.init of its own between them and it

// Case RELAXED_EXIT, the exit's arrive is relaxed: a thread's remote arrival before it may still be in flight when the peer exits.
// RUN: sed -e '104s/arrive {aligned}/arrive.relaxed {aligned}/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_EXIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_EXIT: <stdin>:104:7: error: 'nvvm.cluster.arrive.relaxed' op breaks the protocol rule 'cluster-exit': is relaxed: it orders none of the thread's remote arrivals and copies before it, so one may still be in flight when the peer exits; the exit's arrive must release (nvvm.cluster.arrive)

// Case EARLY_RELEASE, the release waits for all but two wgmma groups: the slot goes back to both load warps while its wgmma may still read it.
// RUN: sed -e '41s/aligned 1/aligned 2/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// EARLY_RELEASE: <stdin>:47:13: error: 'ws.arrive' op breaks the protocol rule 'wgmma-wait': releases slot 0 of channel 0 (iteration 0) while the ws.mma at 39:17 that reads it may still run: no wgmma.wait_group covers it before this arrive

// Case LOCAL_COUNT, the empty barrier counts the own CTA's warps only (8): the peer's arrivals overflow it.
// RUN: sed -e '22s/count = 16/count = 8/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOCAL_COUNT --implicit-check-not=error: --implicit-check-not=Sanitizer
// LOCAL_COUNT: <stdin>:59:11: error: 'ws.arrive' op breaks the protocol rule 'counts': 16 threads arrive on the empty barrier of channel 0 of CTA 0 for iteration 0, but it was initialized with count 8 (ws.init_barrier at 22:9): its phase completes early and the extra arrivals fall into the next one

// Case LOCAL_BYTES, the full barrier expects this CTA's own loads only (A and half of B): the peer's half of B overflows it.
// RUN: sed -e '83s/bytes = 49152/bytes = 32768/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOCAL_BYTES --implicit-check-not=error: --implicit-check-not=Sanitizer
// LOCAL_BYTES: <stdin>:83:13: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 32768 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 49152 (ring 0: 16384 at 84:13 by CTA 0, ring 1: 16384 at 85:13 by CTA 0, ring 1: 16384 at 85:13 by CTA 1)

// Case MID_SYNC, a cluster barrier in the consumers' loop: only they would reach it.
// RUN: sed -e '37a nvvm.cluster.arrive {aligned}' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MID_SYNC --implicit-check-not=error: --implicit-check-not=Sanitizer
// MID_SYNC: <stdin>:38:1: error: 'nvvm.cluster.arrive' op breaks the protocol rule 'cluster-sync': is a cluster barrier among the protocol's other ops: a cluster kernel has two, after the barrier inits (both halves) and as every thread's last ops, and no other

// Case PERSISTENT_PER_THREAD, persistent and ping-pong: a warpgroup releases a K slot with a thread's arrival each on its own CTA, as a kernel without a cluster does: 128 arrivals on a barrier that counts a warp's each, of both CTAs.
// RUN: sed -e '103s/, cluster}/}/' %S/Inputs/check-protocol-cluster-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PERSISTENT_PER_THREAD --implicit-check-not=error: --implicit-check-not=Sanitizer
// PERSISTENT_PER_THREAD: <stdin>:103:15: error: 'ws.arrive' op breaks the protocol rule 'counts': 128 threads arrive on the empty barrier of channel 0 of CTA 0 for iteration 0, but it was initialized with count 8 (ws.init_barrier at 38:9): its phase completes early and the extra arrivals fall into the next one

// Case EXTRA_SYNC, one more cluster barrier that every thread of both CTAs
// reaches, before the last: it would not hang, but the check follows two
// cluster barriers only, and says so (a restriction, named as one).
// RUN: sed -e '104i\      nvvm.cluster.arrive {aligned}\n      nvvm.cluster.wait {aligned}' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTRA_SYNC --implicit-check-not=error: --implicit-check-not=Sanitizer
// EXTRA_SYNC: <stdin>:104:7: error: 'nvvm.cluster.arrive' op breaks the protocol rule 'cluster-sync': is a cluster barrier among the protocol's other ops: a cluster kernel has two, after the barrier inits (both halves) and as every thread's last ops, and no other (a restriction of the check: one that every thread of every CTA reaches would not hang, but the check does not follow it)
