// A family of two kernels for select-kernel.mlir: @add fits, @wide's three
// 256x256xf32 tiles (256 KiB each) do not fit an H100's shared memory.
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
    gpu.func @wide(%a: !ws.tensor_desc<tensor<256x256xf32>>, %b: !ws.tensor_desc<tensor<256x256xf32>>,
                   %c: !ws.tensor_desc<tensor<256x256xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %c256 = arith.constant 256 : i32
      %x = arith.muli %pid32, %c256 : i32
      scf.for %y = %c0 to %ynumel step %c256 : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<256x256xf32>>, i32, i32) -> tensor<256x256xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<256x256xf32>>, i32, i32) -> tensor<256x256xf32>
        %tc = arith.addf %ta, %tb : tensor<256x256xf32>
        "ws.store"(%c, %x, %y, %tc) : (!ws.tensor_desc<tensor<256x256xf32>>, i32, i32, tensor<256x256xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
