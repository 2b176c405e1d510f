// A tensor.splat into an f8 tile is a located error (see splat-scalar.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @axpy_f8(%x: !ws.tensor_desc<tensor<32x64xf32>>, %y: !ws.tensor_desc<tensor<32x64xf32>>,
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
        %r0 = arith.addf %ax, %ty : tensor<32x64xf32>
        %h = arith.truncf %alpha : f32 to f8E4M3FN
        // F8: splat-scalar-f8.mlir:[[@LINE+1]]:15: error: 'tensor.splat' op splats a scalar into an f8 tile, which the compute partition holds widened to f32; splat an f32 scalar and arith.truncf the tile
        %r1 = tensor.splat %h : tensor<32x64xf8E4M3FN>
        %r = arith.extf %r1 : tensor<32x64xf8E4M3FN> to tensor<32x64xf32>
        "ws.store"(%out, %row, %i, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
