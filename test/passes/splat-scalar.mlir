// A runtime scalar broadcast into a tile (tensor.splat of a kernel argument
// or of scalar arith) works wherever a splat constant does: inside the
// warp-specialized loop (the compute partition rebuilds it each step),
// before it (rebuilt once, at the kernel's entry), and in a matmul's
// epilogue (one scalar for every accumulator value).
// RUN: ws-opt %s --split-input-file --pass-pipeline='builtin.module(ws-partition-schedule)' 2>&1 | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %s --split-input-file --ws-pipeline="stage=plan" 2>&1 | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm)' 2>&1 | FileCheck %s --check-prefix=LOWER
// RUN: not ws-opt %S/Inputs/splat-scalar-f8.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %S/Inputs/splat-scalar-f8.mlir --check-prefix=F8 --implicit-check-not=error:
//
// In the loop: the splat goes to the compute partition with its users.
// SCHED-LABEL: gpu.func @axpy(
// SCHED: tensor.splat %arg3 {ws.partition = ["compute"], ws.stage = 0 : i32} : tensor<32x64xf32>
// SCHED: arith.mulf %splat, %{{.*}} {ws.partition = ["compute"], ws.stage = 0 : i32} : tensor<32x64xf32>
// LOWER-LABEL: llvm.func @axpy(
// LOWER: scf.for
// LOWER: llvm.mlir.poison : vector<4xf32>
// LOWER-COUNT-4: llvm.insertelement %arg4
// LOWER: arith.mulf
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @axpy(%x: !ws.tensor_desc<tensor<32x64xf32>>, %y: !ws.tensor_desc<tensor<32x64xf32>>,
                   %out: !ws.tensor_desc<tensor<32x64xf32>>, %alpha: f32, %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %row = arith.muli %pid32, %c32 : i32

      scf.for %i = %c0 to %n step %c64 : i32 {
        %tx = "ws.load"(%x, %row, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %ty = "ws.load"(%y, %row, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %a = tensor.splat %alpha : tensor<32x64xf32>
        %ax = arith.mulf %a, %tx : tensor<32x64xf32>
        %r = arith.addf %ax, %ty : tensor<32x64xf32>
        "ws.store"(%out, %row, %i, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// Before the loop: the splat stays where it is; the compute partition's
// registers hold it from the kernel's entry, before any partition branches.
// SCHED-LABEL: gpu.func @axpy(
// SCHED: %splat = tensor.splat %arg3 : tensor<32x64xf32>
// SCHED: scf.for
// SCHED: arith.mulf %splat, %{{.*}} {ws.partition = ["compute"], ws.stage = 0 : i32}
// LOWER-LABEL: llvm.func @axpy(
// LOWER: nvvm.read.ptx.sreg.tid.x
// LOWER: llvm.mlir.poison : vector<4xf32>
// LOWER-COUNT-4: llvm.insertelement %arg4
// LOWER: scf.if
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @axpy(%x: !ws.tensor_desc<tensor<32x64xf32>>, %y: !ws.tensor_desc<tensor<32x64xf32>>,
                   %out: !ws.tensor_desc<tensor<32x64xf32>>, %alpha: f32, %n: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %row = arith.muli %pid32, %c32 : i32
      %a = tensor.splat %alpha : tensor<32x64xf32>
      scf.for %i = %c0 to %n step %c64 : i32 {
        %tx = "ws.load"(%x, %row, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %ty = "ws.load"(%y, %row, %i) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>

        %ax = arith.mulf %a, %tx : tensor<32x64xf32>
        %r = arith.addf %ax, %ty : tensor<32x64xf32>
        "ws.store"(%out, %row, %i, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// A matmul epilogue scaled by a runtime alpha: each accumulator value times
// the kernel argument.
// SCHED-LABEL: gpu.func @matmul(
// SCHED: tensor.splat %arg4 {ws.partition = ["compute"]} : tensor<128x256xf32>
// LOWER-LABEL: llvm.func @matmul(
// LOWER-COUNT-128: arith.mulf %{{[0-9]+}}, %arg5 : f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @matmul(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                     %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32, %alpha: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %al = tensor.splat %alpha : tensor<128x256xf32>
      %scaled = arith.mulf %acc, %al : tensor<128x256xf32>
      %out = arith.truncf %scaled : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}
