// RUN: ws-opt %s --emit=ptx | FileCheck %s
// RUN: rm -rf %t && mkdir %t && ws-opt %s --emit=launcher -o %t/index_kernel
// RUN: FileCheck %s --check-prefix=LAUNCHER < %t/index_kernel.h
// A kernel argument of type index (what MLIR's GPU outlining produces) is
// passed as an i64, as upstream's GPU lowering passes it: the kernel reads
// it through a cast back to index, and the launcher takes an int64_t.
// CHECK: .entry add_index(
// CHECK: .param .u64 add_index_param_4
// CHECK: setmaxnreg
// LAUNCHER: const ws_tensor *c /* arg2: WS_DTYPE_F32, rank 2, TMA box 32x64 */,
// LAUNCHER-NEXT: int64_t ynumel /* arg3 */);
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_index(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                        %c: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: index) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %n = arith.index_cast %ynumel : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
