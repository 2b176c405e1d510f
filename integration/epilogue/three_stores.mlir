// three_stores: see epilogue_run.py (its tests: test/passes/plan-memory-epilogue-stores.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @three_stores(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                           %e: !ws.tensor_desc<tensor<128x64xf16>>,
                           %c: !ws.tensor_desc<tensor<128x128xf16>>, %d: !ws.tensor_desc<tensor<128x128xf16>>,
                           %f: !ws.tensor_desc<tensor<128x128xf16>>, %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
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
      %acc:2 = scf.for %k = %c0 to %K step %c64 iter_args(%x0 = %zero, %y0 = %zero) -> (tensor<128x128xf32>, tensor<128x128xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %te = "ws.load"(%e, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %px = "ws.dot"(%ta, %tb, %x0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        %py = "ws.dot"(%ta, %te, %y0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %px, %py : tensor<128x128xf32>, tensor<128x128xf32>
      } {ws.warp_specialize}
      %dx = arith.truncf %acc#0 : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%c, %m, %n, %dx) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      %dy = arith.truncf %acc#1 : tensor<128x128xf32> to tensor<128x128xf16>
      "ws.store"(%d, %m, %n, %dy) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      %ny = arith.negf %dy : tensor<128x128xf16>
      "ws.store"(%f, %m, %n, %ny) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      gpu.return
    }
  }
}
