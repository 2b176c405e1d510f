// The block-scaled sm_100a matmul's protocol (integration/matmul/fp8.py's
// bwmx_128x256x128_w8, saved specialized in
// Inputs/check-protocol-block-scale-tcgen05.mlir): each K step the MMA warp
// copies the step's three MX scale atoms from their ring slots into tensor
// memory (ws.tmem_copy, tcgen05.cp) and then issues the block-scaled
// tcgen05.mma, one commit releasing the slots of all five rings. Proved by
// both methods, and broken by hand in each way below, each rejected at the
// op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-block-scale-tcgen05.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// RUN: ws-opt %S/Inputs/check-protocol-block-scale-tcgen05.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATES
// PROVED: remark: protocol proved: 3 channel(s), 6 ring(s), trip counts 0 to 10
// STATES: remark: protocol proved: 3 channel(s), 6 ring(s), trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)

// Case NO_COPY, B's second scale atom is never copied in: the MMA would read the last tile's (or nothing).
// RUN: sed -e '105d' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_COPY --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_COPY: <stdin>:106:13: error: 'ws.tc_mma' op breaks the protocol rule 'scale-copy': is block-scaled and reads the scales of ring 3 for iteration 0, but no ws.tmem_copy (tcgen05.cp) of that ring comes before it

// Case COPY_AFTER_MMA, A's scales are copied after the MMA that reads them: it reads the step before's.
// RUN: sed -e '104d' -e '107a "ws.tmem_copy"(%21#0) {ring = 2 : i32} : (i32) -> ()' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COPY_AFTER_MMA --implicit-check-not=error: --implicit-check-not=Sanitizer
// COPY_AFTER_MMA: <stdin>:106:13: error: 'ws.tc_mma' op breaks the protocol rule 'scale-copy': is block-scaled and reads the scales of ring 2 for iteration 0, but no ws.tmem_copy (tcgen05.cp) of that ring comes before it

// Case PLAIN_ARRIVE, the K step's slots are released with a plain arrive: the load warp could refill the scale slot while tcgen05.cp still reads it.
// RUN: sed -e '108s/ws.commit/ws.arrive/' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAIN_ARRIVE --implicit-check-not=error: --implicit-check-not=Sanitizer
// PLAIN_ARRIVE: <stdin>:108:13: error: 'ws.arrive' op breaks the protocol rule 'tcgen05-commit': hands slot 0 of ring 2 (iteration 0) on with a plain arrive on the empty barrier of channel 0, but the tcgen05.cp at 104:13 that reads it runs asynchronously: only a tcgen05.commit to this barrier (ws.commit) arrives once it is done

// Case COPY_BEFORE_WAIT, a scale atom is copied before the wait for its slot to be full.
// RUN: sed -e '104d' -e '101a "ws.tmem_copy"(%21#0) {ring = 2 : i32} : (i32) -> ()' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COPY_BEFORE_WAIT --implicit-check-not=error: --implicit-check-not=Sanitizer
// COPY_BEFORE_WAIT: <stdin>:102:1: error: 'ws.tmem_copy' op breaks the protocol rule 'balance': copies (tcgen05.cp) from slot 0 of ring 2 for iteration 0 without first waiting on the full barrier of channel 0 for it

// Case WRONG_SLOT, a scale atom's copy takes its slot from the accumulator's ws.slot_phase (depth 1), not the K ring's.
// RUN: sed -e '104s/(%21#0) {ring = 2/(%19#0) {ring = 2/' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WRONG_SLOT --implicit-check-not=error: --implicit-check-not=Sanitizer
// WRONG_SLOT: <stdin>:104:13: error: 'ws.tmem_copy' op breaks the protocol rule 'phases': its slot comes from a ws.slot_phase of depth 1 (at 97:19), but channel 0 has 4 slots, so slot = i mod depth differs between its sides
