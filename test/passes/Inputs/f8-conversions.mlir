// Every extf/truncf with an f8 side: e4m3 -> f32, e5m2 -> bf16,
// bf16 -> e5m2, f32 -> e4m3, e4m3/e5m2 -> f16.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @conv(%a: !ws.tensor_desc<tensor<2x32xf8E4M3FN>>, %b: !ws.tensor_desc<tensor<2x32xf8E5M2>>, %c: !ws.tensor_desc<tensor<2x32xf16>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      scf.for %y = %c0 to %n step %c32 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<2x32xf8E4M3FN>>, i32, i32) -> tensor<2x32xf8E4M3FN>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<2x32xf8E5M2>>, i32, i32) -> tensor<2x32xf8E5M2>
        %wa = arith.extf %ta : tensor<2x32xf8E4M3FN> to tensor<2x32xf32>
        %wb = arith.extf %tb : tensor<2x32xf8E5M2> to tensor<2x32xbf16>
        %nb = arith.truncf %wb : tensor<2x32xbf16> to tensor<2x32xf8E5M2>
        %na = arith.truncf %wa : tensor<2x32xf32> to tensor<2x32xf8E4M3FN>
        %x = arith.extf %na : tensor<2x32xf8E4M3FN> to tensor<2x32xf16>
        %z = arith.extf %nb : tensor<2x32xf8E5M2> to tensor<2x32xf16>
        %r = arith.addf %x, %z : tensor<2x32xf16>
        "ws.store"(%c, %c0, %y, %r) : (!ws.tensor_desc<tensor<2x32xf16>>, i32, i32, tensor<2x32xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
