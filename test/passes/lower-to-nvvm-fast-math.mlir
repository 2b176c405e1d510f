// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | ws-opt --split-input-file --pass-pipeline='builtin.module(ws-lower-to-nvvm)' | FileCheck %s
// RUN: ws-opt --split-input-file --emit=ptx %s -o - | FileCheck %s --check-prefix=PTX
// math.tanh with fastmath<afn> (or fast) on f32 is the special-function
// unit's tanh.approx.f32: llvm.intr.tanh with afn, on an elementwise
// kernel's vector chunks and on a matmul's accumulator fragment alike.
// Without the flag it stays math.tanh, which convert-gpu-to-nvvm takes to
// libdevice's exact tanhf (no tanh.approx in its PTX).

// CHECK-LABEL: llvm.func @tanh_afn
// CHECK: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (vector<4xf32>) -> vector<4xf32>
// CHECK-NOT: math.tanh
// PTX-LABEL: .entry tanh_afn
// PTX: tanh.approx.f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tanh_afn(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = math.tanh %ta fastmath<afn> : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: llvm.func @tanh_exact
// CHECK-NOT: llvm.intr.tanh
// CHECK: math.tanh %{{.*}} : vector<4xf32>
// PTX-LABEL: .entry tanh_exact
// PTX-NOT: tanh.approx
// PTX: ex2.approx
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tanh_exact(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = math.tanh %ta : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// A matmul's epilogue: the accumulator's fragment, one scalar per value.
// CHECK-LABEL: llvm.func @tanh_fragment
// CHECK-COUNT-4: llvm.intr.tanh(%{{.*}}) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
// PTX-LABEL: .entry tanh_fragment
// PTX-COUNT-4: tanh.approx.f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tanh_fragment(%a: !ws.tensor_desc<tensor<64x64xf16>>, %b: !ws.tensor_desc<tensor<64x64xf16>>,
                            %c: !ws.tensor_desc<tensor<64x64xf32>>, %k: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %acc = scf.for %kk = %c0 to %k step %c64 iter_args(%d = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tb = "ws.load"(%b, %kk, %c0) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %d2 = "ws.dot"(%ta, %tb, %d) : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %d2 : tensor<64x64xf32>
      } {ws.warp_specialize}
      %t = math.tanh %acc fastmath<fast> : tensor<64x64xf32>
      "ws.store"(%c, %c0, %c0, %t) : (!ws.tensor_desc<tensor<64x64xf32>>, i32, i32, tensor<64x64xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// math.exp2 with fastmath<afn> on f32 is ex2.approx.ftz.f32, one
// instruction of the special-function unit, element by element of a
// vector chunk; without the flag it is ex2.approx.f32, which ptxas wraps
// in a compare and two predicated multiplies to keep subnormal results.
// CHECK-LABEL: llvm.func @exp2_afn
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: math.exp2
// PTX-LABEL: .entry exp2_afn
// PTX: ex2.approx.ftz.f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @exp2_afn(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = math.exp2 %ta fastmath<afn> : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: llvm.func @exp2_exact
// CHECK-NOT: ex2.approx.ftz
// CHECK: math.exp2 %{{.*}} : vector<4xf32>
// PTX-LABEL: .entry exp2_exact
// PTX-NOT: ex2.approx.ftz
// PTX: ex2.approx.f32
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @exp2_exact(%a: !ws.tensor_desc<tensor<32x64xf32>>, %c: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = math.exp2 %ta : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
