// No fixed caps where the IR is valid: a chain of 80 dependent elementwise
// ops (at most three tiles live) and a loop of 600 ops compile, and
// --ws-explain says how many registers the live tiles need at their peak
// (a tile used only by the op right after it is fused into that op).
// RUN: %python %S/Inputs/long_chain.py 80 > %t.80.mlir
// RUN: ws-opt %t.80.mlir --ws-explain --emit=ptx -o %t.80.ptx 2>&1 | FileCheck %s --check-prefix=CHAIN --implicit-check-not=error:
// RUN: FileCheck %s --check-prefix=PTX < %t.80.ptx
// RUN: %python %S/Inputs/long_chain.py 600 > %t.600.mlir
// RUN: ws-opt %t.600.mlir --emit=ptx -o %t.600.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.600.ptx

// CHAIN: remark: registers: the compute partition's tiles need 16 per thread where most are live, here: 1 tile(s), tensor<32x64xf32> at 8:15 (16); the compute warps have 232 after setmaxnreg (addresses, indices and loop state take some of the rest)
// PTX: setmaxnreg.inc.sync.aligned.u32
// PTX: cp.async.bulk.tensor.2d.global.shared::cta
