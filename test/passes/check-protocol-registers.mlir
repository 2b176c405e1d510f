// Broken protocols, rule registers: one setmaxnreg per warpgroup on every path, sized within the pool.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case PAST_POOL, the consumers take 248 registers: 66560 in all, past the 64512 of the pool.
// RUN: sed 's/setmaxregister  increase 240/setmaxregister  increase 248/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PAST_POOL --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case MISSING_DEC, the producer warpgroup's setmaxnreg.dec deleted.
// RUN: sed '/setmaxregister  decrease 24/d' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING_DEC --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case INC_BELOW_CAP, the consumers 'increase' to 120, below the entry cap of 128.
// RUN: sed 's/increase 232/increase 120/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INC_BELOW_CAP --implicit-check-not=error: --implicit-check-not=Sanitizer

// PAST_POOL: <stdin>:33:9: error: 'nvvm.setmaxregister' op breaks the protocol rule 'registers': the warpgroups ask for 66560 registers in all, past the block's pool of 64512 (384 threads at the entry cap of 168): setmaxnreg.inc would wait forever
// MISSING_DEC: <stdin>:5:5: error: 'gpu.func' op breaks the protocol rule 'registers': thread 256 of warpgroup 2 runs 0 setmaxnreg (with 0 iterations); every thread of a warpgroup must run exactly one
// INC_BELOW_CAP: <stdin>:28:9: error: 'nvvm.setmaxregister' op breaks the protocol rule 'registers': increases to 120 registers from the entry cap of 128
