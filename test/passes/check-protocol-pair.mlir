// The protocol of an sm_100a pair (integration/matmul/variants.py's
// bw_128x256x64_w8_c2x1: tiles in clusters of two along x whose leader
// issues one tcgen05.mma of 256 rows, cta_group::2, and pbw_128x256x64_w8_c2:
// persistent over pairs of M tiles with two accumulators; saved specialized
// in Inputs/check-protocol-pair*.mlir). The check runs both CTAs side by
// side: each load warp copies its A and its half of B into its own slots,
// every copy completing on the leader's full barrier, where only the leader
// expects the pair's bytes; the leader's MMA reads both CTAs' slots and
// writes both CTAs' tensor memory; its commits reach every CTA's empty
// barrier (K slots) and full barrier (the accumulator); both epilogues hand
// the accumulator back on the leader's empty barrier; each load warp waits
// for its last releases before the exit barrier, and the two MMA warps free
// tensor memory after it. Proved (by happens-before, with another seed, and
// state by state up to 3 iterations), and broken by hand in each way below,
// each rejected at the op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-pair.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-pair.mlir --pass-pipeline='builtin.module(ws-check-protocol{seed=7 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-pair.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=3 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// RUN: ws-opt %S/Inputs/check-protocol-pair-persistent.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERSISTENT
// PROVED: remark: protocol proved: 3 channel(s), 3 ring(s), trip counts 0 to 10, the 2 CTAs of a 2x1 cluster together
// STATES: remark: protocol proved: 3 channel(s), 3 ring(s), trip counts 0 to 3, the 2 CTAs of a 2x1 cluster together, {{[0-9]+}} states explored (every interleaving, state by state)
// PERSISTENT: remark: protocol proved: 3 channel(s), 3 ring(s), tile counts 0 to 6, K trip counts 0 to 12, the 2 CTAs of a 2x1 cluster together

// Seed 003's kernel, a block-scaled pair (integration/matmul/fp8.py's
// bwmx_128x256x128_w8_c2x1: MX scale atoms, Inputs/check-protocol-pair-mx.mlir):
// each CTA loads its own A scale atom and both of B's into its own slots,
// all completing on the leader's full barrier, whose expect-tx is the pair's
// 2 x 34304 bytes; the leader's tcgen05.cp (cta_group::2) copies each CTA's
// atoms into its own tensor memory before its MMA reads them.
// RUN: ws-opt %S/Inputs/check-protocol-pair-mx.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MX
// RUN: ws-opt %S/Inputs/check-protocol-pair-mx.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states max-trips=2 explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MX_STATES
// MX: remark: protocol proved: 3 channel(s), 6 ring(s), trip counts 0 to 10, the 2 CTAs of a 2x1 cluster together
// MX_STATES: remark: protocol proved: 3 channel(s), 6 ring(s), trip counts 0 to 2, the 2 CTAs of a 2x1 cluster together, {{[0-9]+}} states explored (every interleaving, state by state)

// Case MX_OWN_BYTES, the leader expects its own CTA's bytes only: the peer's copies, its A, its half of B and its scale atoms, overflow the phase.
// RUN: sed -e '74s/68608/34304/' %S/Inputs/check-protocol-pair-mx.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MX_OWN_BYTES --implicit-check-not=error: --implicit-check-not=Sanitizer
// MX_OWN_BYTES: <stdin>:74:15: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 34304 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 68608 (ring 0: 16384 at 76:13 by CTA 0, ring 1: 16384 at 77:13 by CTA 0, ring 2: 512 at 85:13 by CTA 0, ring 3: 512 at 88:13 by CTA 0, ring 4: 512 at 90:13 by CTA 0, ring 0: 16384 at 76:13 by CTA 1,

// Case MX_LEADER_SCALES, only the leader loads B's first scale atom, as if its copy fed both CTAs: the peer's tensor memory would get an atom nobody loaded, and the leader's expect-tx counts one too many.
// RUN: sed -e '88s/^/            scf.if %30 {\n/' -e '88s/$/\n            }/' %S/Inputs/check-protocol-pair-mx.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MX_LEADER_SCALES --implicit-check-not=error: --implicit-check-not=Sanitizer
// MX_LEADER_SCALES: <stdin>:74:15: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 68608 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 68096 ({{.*}}ring 4: 512 at 92:13 by CTA 0, ring 0: 16384 at 76:13 by CTA 1, ring 1: 16384 at 77:13 by CTA 1, ring 2: 512 at 85:13 by CTA 1, ring 4: 512 at 92:13 by CTA 1)

// Case MX_COPY_LATE, the leader copies B's first scale atom after the MMA that reads it.
// RUN: sed -e '131{h;d}' -e '133G' %S/Inputs/check-protocol-pair-mx.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MX_COPY_LATE --implicit-check-not=error: --implicit-check-not=Sanitizer
// MX_COPY_LATE: <stdin>:132:15: error: 'ws.tc_mma' op breaks the protocol rule 'scale-copy': is block-scaled and reads the scales of ring 3 for iteration 0, but no ws.tmem_copy (tcgen05.cp) of that ring comes before it

// Case PEER_EXPECTS, the peer's load warp also arrives with the pair's expect-tx (no leader guard), on its own full barrier, which no copy completes on: the pair's copies complete on the leader's.
// RUN: sed -e '73d' -e '75d' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PEER_EXPECTS --implicit-check-not=error: --implicit-check-not=Sanitizer
// PEER_EXPECTS: <stdin>:73:15: error: 'ws.arrive_expect_tx' op breaks the protocol rule 'expect-tx': 65536 bytes are expected on the full barrier of channel 0 for iteration 0, but the TMA copies that complete on it in that phase bring 0 (none)

// Case NO_TAIL, the load warps exit right after their last copy: the leader's commit may still be on its way to the peer's empty barrier when the peer exits.
// RUN: sed -e '83,97d' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_TAIL --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_TAIL: <stdin>:103:15: error: 'ws.commit' op breaks the protocol rule 'cluster-exit': arrives (a tcgen05.commit of another CTA, landing once its MMAs are done) on the empty barrier of channel 0 of CTA 1 for iteration 0, but no thread of CTA 1 waits for that phase (with 1 iteration): the CTA may exit before the arrival lands; its load warp waits for its last releases before it exits

// Case SHORT_TAIL, the persistent pair's load warps wait for four of their five last releases: the fifth may land after the CTA exits.
// RUN: sed -e '136d' %S/Inputs/check-protocol-pair-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SHORT_TAIL --implicit-check-not=error: --implicit-check-not=Sanitizer
// SHORT_TAIL: <stdin>:157:17: error: 'ws.commit' op breaks the protocol rule 'cluster-exit': arrives (a tcgen05.commit of another CTA, landing once its MMAs are done) on the empty barrier of channel 0 of CTA 1 for iteration 0, but no thread of CTA 1 waits for that phase (with 1 tile of 1 iteration): the CTA may exit before the arrival lands; its load warp waits for its last releases before it exits

// Case COMMIT_LEADER_ONLY, the leader's commit releases a K slot in its own CTA only: the peer's load warp, whose half of B the MMA read, never hears of it.
// RUN: sed -e '118s/, cluster}/}/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMMIT_LEADER_ONLY --implicit-check-not=error: --implicit-check-not=Sanitizer
// COMMIT_LEADER_ONLY: <stdin>:97:11: error: 'ws.wait' op breaks the protocol rule 'balance': the load partition of CTA 1 (warp 8, 1 thread) waits on the empty barrier of channel 0 for iteration 4, which needs the arrivals of iteration 0, but no partition arrives on it then (with 1 iteration): an arrive is missing or skipped on this path

// Case ACC_COMMIT_LOCAL, the commit that the tile is done reaches the leader's epilogue only: the peer's epilogue waits for its rows forever.
// RUN: sed -e '123s/, cluster}/}/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ACC_COMMIT_LOCAL --implicit-check-not=error: --implicit-check-not=Sanitizer
// ACC_COMMIT_LOCAL: <stdin>:45:9: error: 'ws.wait' op breaks the protocol rule 'balance': the compute partition of CTA 1 (warps 0-3) waits on the full barrier of channel 2 for iteration 0, which needs the arrivals of iteration 0, but no partition arrives on it then (with 0 iterations): an arrive is missing or skipped on this path

// Case LOCAL_HANDBACK, the epilogues hand the accumulator back thread by thread on their own CTA's barrier: the leader's counts one arrival per warp of both CTAs.
// RUN: sed -e '50s/, leader}/}/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LOCAL_HANDBACK --implicit-check-not=error: --implicit-check-not=Sanitizer
// LOCAL_HANDBACK: <stdin>:50:9: error: 'ws.arrive' op breaks the protocol rule 'counts': 256 threads arrive on the empty barrier of channel 2 of CTA 0 for iteration 0, but it was initialized with count 16 (ws.init_barrier at 26:9): its phase completes early and the extra arrivals fall into the next one

// Case PEER_TMEM_RACE, the same, with the counts made to agree (each CTA's epilogue hands back to itself): the leader's MMA may write the next tile into the peer's tensor memory while the peer's epilogue still reads this one.
// RUN: sed -e '42s/count = 16/count = 256/' -e '67s/, leader}/}/' %S/Inputs/check-protocol-pair-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PEER_TMEM_RACE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PEER_TMEM_RACE: <stdin>:65:17: error: 'ws.tmem_load' op breaks the protocol rule 'race': with 1 tile of 0 iterations, in the compute partition of CTA 1 (warps 0-3), this op reads accumulator buffer 0 (tensor memory) for iteration 0 after it was released (the empty barrier of CTA 0 completed that phase), so the next write (a later MMA's) may overwrite it

// Case PEER_MMA, both CTAs' MMA warps issue the pair's MMAs and commits (no leader guard).
// RUN: sed -e '107s/scf.if %20/scf.if %13/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PEER_MMA --implicit-check-not=error: --implicit-check-not=Sanitizer
// PEER_MMA: <stdin>:123:13: error: 'ws.commit' op breaks the protocol rule 'counts': 2 threads arrive on the full barrier of channel 2 of CTA 0 for iteration 0, but it was initialized with count 1 (ws.init_barrier at 25:9): its phase completes early and the extra arrivals fall into the next one

// Case EARLY_COMMIT, the commit that releases a K slot comes before the MMA that reads it: the slot goes back to both load warps before the MMA has read either half.
// RUN: sed -e '117{h;d}' -e '118G' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY_COMMIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// EARLY_COMMIT: <stdin>:118:15: error: 'ws.tc_mma' op breaks the protocol rule 'balance': reads (tcgen05.mma) slot 0 of ring 0 for iteration 0 after this partition already released it with an arrive on the empty barrier of a CTA of its cluster

// Case PLAIN_RELEASE, a K slot is released with a plain arrive instead of a commit: the asynchronous MMA may still read both CTAs' halves.
// RUN: sed -e '118s/"ws.commit"/"ws.arrive"/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAIN_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PLAIN_RELEASE: <stdin>:118:15: error: 'ws.arrive' op breaks the protocol rule 'tcgen05-commit': hands slot 0 of ring 0 (iteration 0) on with a plain arrive on the empty barrier of channel 0, but the tcgen05.mma at 117:15 that reads it runs asynchronously: only a tcgen05.commit to this barrier (ws.commit) arrives once it is done

// Case CTA_PUBLISH, the inits are published with nvvm.barrier0: the peer's copy or the leader's commit may reach a barrier before it is initialized.
// RUN: sed -e '36s/.*/      nvvm.barrier0/' -e '37d' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CTA_PUBLISH --implicit-check-not=error: --implicit-check-not=Sanitizer
// CTA_PUBLISH: <stdin>:36:7: error: 'nvvm.barrier0' op breaks the protocol rule 'init': publishes the barrier inits to this CTA only, but the CTAs of a cluster arrive on and copy into each other's: a cluster barrier (nvvm.cluster.arrive and nvvm.cluster.wait) must, or a peer's remote arrival may reach a barrier before its init

// Case RELAXED_ALLOC, the inits published by a relaxed cluster arrive, as in a kernel without tensor memory: it does not publish the address tcgen05.alloc writes before it.
// RUN: sed -e '36s/arrive {aligned}/arrive.relaxed {aligned}/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELAXED_ALLOC --implicit-check-not=error: --implicit-check-not=Sanitizer
// RELAXED_ALLOC: <stdin>:36:7: error: 'nvvm.cluster.arrive.relaxed' op breaks the protocol rule 'init': is relaxed: it publishes the barrier inits (the nvvm.fence.mbarrier.init before it orders them) but not the tensor-memory address ws.tmem_alloc writes before it: this arrive must release (nvvm.cluster.arrive)

// Case NO_EXIT, no cluster barrier at the end: a CTA may exit, its tensor memory freed, while the leader's MMA still writes into it.
// RUN: sed -e '139,141d' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_EXIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_EXIT: <stdin>:3:5: error: 'gpu.func' op breaks the protocol rule 'cluster-exit': 0 of the cluster's 768 threads end with a cluster barrier (nvvm.cluster.arrive and nvvm.cluster.wait as their last ops): a CTA may exit while a peer still arrives on its barriers or copies into its slots

// Case EARLY_DEALLOC, the dealloc comes before the exit barrier: the peer may still read its tensor memory.
// RUN: sed -e '139,141d' -e '147a\      nvvm.tcgen05.fence <before>' -e '147a\      nvvm.cluster.arrive {aligned}' -e '147a\      nvvm.cluster.wait {aligned}' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EARLY_DEALLOC --implicit-check-not=error: --implicit-check-not=Sanitizer
// EARLY_DEALLOC: <stdin>:143:9: error: 'ws.tmem_dealloc' op breaks the protocol rule 'tmem-dealloc': frees tensor memory before a block-wide barrier that every thread reaches after its last tensor-memory access: the epilogue's tcgen05.ld or the MMAs may still use it
