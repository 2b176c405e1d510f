// f32_store: C = A B^T stored in f32 as the accumulator is (see
// epilogue_run.py; its tests: test/passes/partition-schedule-store-accumulator.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f32_store(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                        %c: !ws.tensor_desc<tensor<128x128xf32>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %p = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %p : tensor<128x128xf32>
      } {ws.warp_specialize}
      "ws.store"(%c, %m, %n, %acc) : (!ws.tensor_desc<tensor<128x128xf32>>, i32, i32, tensor<128x128xf32>) -> ()
      gpu.return
    }
  }
}
