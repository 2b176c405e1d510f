// An f8 kernel: e4m3 and e5m2 loads, extf/truncf through f16, an f8 splat,
// f8 mulf/addf/cmpf/select, an e4m3 store; 4x16 tiles over 8 warps leave
// 240 of 256 compute threads without a chunk.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f8k(%a: !ws.tensor_desc<tensor<4x16xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<4x16xf8E5M2>>, %c: !ws.tensor_desc<tensor<4x16xf8E4M3FN>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      %two = arith.constant dense<1.5> : tensor<4x16xf8E4M3FN>
      scf.for %y = %c0 to %n step %c16 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<4x16xf8E4M3FN>>, i32, i32) -> tensor<4x16xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<4x16xf8E5M2>>, i32, i32) -> tensor<4x16xf8E5M2>
        %wb = arith.extf %tb : tensor<4x16xf8E5M2> to tensor<4x16xf16>
        %nb = arith.truncf %wb : tensor<4x16xf16> to tensor<4x16xf8E4M3FN>
        %s = arith.mulf %ta, %two : tensor<4x16xf8E4M3FN>
        %r = arith.addf %s, %nb : tensor<4x16xf8E4M3FN>
        %m = arith.cmpf ogt, %r, %ta : tensor<4x16xf8E4M3FN>
        %x = arith.select %m, %r, %ta : tensor<4x16xi1>, tensor<4x16xf8E4M3FN>
        "ws.store"(%c, %c0, %y, %x) : (!ws.tensor_desc<tensor<4x16xf8E4M3FN>>, i32, i32, tensor<4x16xf8E4M3FN>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
