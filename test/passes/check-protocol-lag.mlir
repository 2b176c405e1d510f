// The lagged K loop's protocol (ws.stage = 1 on its math): integration/matmul/
// fp8.py's persistent block-scaled kernel (DeepGEMM's form), saved
// specialized in Inputs/check-protocol-lag.mlir. Its consumers run two K
// steps an iteration, each step's math a step after its wgmmas: proved by
// both methods, and broken by hand in each way below, each rejected at the
// op that breaks its rule.
// RUN: ws-opt %S/Inputs/check-protocol-lag.mlir --pass-pipeline='builtin.module(ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVED
// State by state over the whole bound is 9 s of the plain build (2.6
// million states); under the sanitizers, six times that, it runs to 3 trip
// counts (0.4 s plain), which still walks every step of the explorer.
// RUN: ws-opt %S/Inputs/check-protocol-lag.mlir --pass-pipeline='builtin.module(ws-check-protocol{method=states %if sanitize %{max-trips=3%} explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=%if sanitize %{STATES-SANITIZED%} %else %{STATES%}
// PROVED: remark: protocol proved: 2 channel(s), 5 ring(s), tile counts 0 to 4, K trip counts 0 to 10
// STATES: remark: protocol proved: 2 channel(s), 5 ring(s), tile counts 0 to 4, K trip counts 0 to 10, {{[0-9]+}} states explored (every interleaving, state by state)
// STATES-SANITIZED: remark: protocol proved: 2 channel(s), 5 ring(s), tile counts 0 to 3, K trip counts 0 to 3, {{[0-9]+}} states explored (every interleaving, state by state)

// Case MATH_IN_FLIGHT, step n's math does not wait for its wgmmas: the
// wait_group 1 after step n + 1's wgmmas is gone, so ws.mma_done reads a
// product the tensor cores may still be writing.
// RUN: sed -e '82d' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MATH_IN_FLIGHT --implicit-check-not=error: --implicit-check-not=Sanitizer
// MATH_IN_FLIGHT: <stdin>:82:19: error: 'ws.mma_done' op breaks the protocol rule 'mma-done': reads the product of the ws.mma at 51:19 while its wgmma may still write it: no wgmma.wait_group retires that wgmma's group before this ws.mma_done

// Case SCALE_AFTER_RELEASE, step n - 1's slot is given back before its
// math reads the scales from it: the load warp may already be refilling it.
// RUN: sed -e '60{h;d}' -e '61,66{H;d}' -e '69G' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SCALE_AFTER_RELEASE --implicit-check-not=error: --implicit-check-not=Sanitizer
// SCALE_AFTER_RELEASE: <stdin>:63:21: error: 'ws.read_slot' op breaks the protocol rule 'balance': reads slot 1 of ring 3 for iteration 1 after this partition already released it with an arrive on the empty barrier

// Case LAST_SLOT_KEPT, the last step's slot (a real step's or the
// phantom's) is not given back after the loop: the next tile's loads wait
// for it forever.
// RUN: sed -e '118,120d' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LAST_SLOT_KEPT --implicit-check-not=error: --implicit-check-not=Sanitizer
// LAST_SLOT_KEPT: <stdin>:93:13: error: 'ws.arrive' op breaks the protocol rule 'balance': this partition's arrives on the empty barrier of channel 0 skip iteration 1 (this one is for iteration 2): the arrive is not on every path (an scf.if around it?)

// Case NO_PHANTOM, the load warp fills one step an iteration while the
// consumers take two: the second step's slot is never filled.
// RUN: sed -e '166,174d' -e '175,176s/%36/%arg11/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_PHANTOM --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_PHANTOM: <stdin>:78:13: error: 'ws.wait' op breaks the protocol rule 'balance': the compute partition (warps 0-3) waits on the full barrier of channel 0 for iteration 1, which needs the arrivals of iteration 1, but no partition arrives on it then

// Case NO_DRAIN, the wait_group 0 that ends each iteration is gone: the
// next iteration's wait_group 1 would still retire step n + 1's wgmmas
// before their math, but after the last iteration nothing does, and the
// last odd step's math reads its product in flight. (ptxas needs that wait
// too: a wgmma in flight across the back edge, whose registers the loop
// reads, makes it serialize every wgmma, C7514.)
// RUN: sed -e '94d' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NO_DRAIN --implicit-check-not=error: --implicit-check-not=Sanitizer
// NO_DRAIN: <stdin>:106:19: error: 'ws.mma_done' op breaks the protocol rule 'mma-done': reads the product of the ws.mma at 80:19 while its wgmma may still write it
