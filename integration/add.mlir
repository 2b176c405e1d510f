// The elementwise add: c = a + b over a 32x64 tile per step of a loop
// along y, one block per 32 rows (the first kernel of seed 000).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>,
                  %c: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      %c64 = arith.constant 64 : i32
      %x = arith.muli %pid32, %c32 : i32
      scf.for %y = %c0 to %ynumel step %c64 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tc = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
