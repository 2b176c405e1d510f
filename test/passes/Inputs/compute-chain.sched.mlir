// A schedule written by hand, as ws-partition-schedule writes one: c = exp(a) * 2
// with exp in partition compute and the product in compute1, so the tile
// crosses from one compute partition to another (a chain cut in two, the
// shape of a dQ writer fed by the consumers). specialize-compute-chain.mlir
// runs the later passes on it.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @chain(%arg0: !ws.tensor_desc<tensor<32x64xf32>>, %arg1: !ws.tensor_desc<tensor<32x64xf32>>, %arg2: i32) kernel attributes {ws.num_warps = 4 : i32} {
      %block_id_x = gpu.block_id  x
      %0 = arith.index_cast %block_id_x : index to i32
      %c0_i32 = arith.constant 0 : i32
      %c32_i32 = arith.constant 32 : i32
      %c64_i32 = arith.constant 64 : i32
      %1 = arith.muli %0, %c32_i32 : i32
      scf.for %arg3 = %c0_i32 to %arg2 step %c64_i32  : i32 {
        %2 = "ws.load"(%arg0, %1, %arg3) {ws.partition = ["load"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %3 = math.exp %2 {ws.partition = ["compute"], ws.stage = 0 : i32} : tensor<32x64xf32>
        %cst = arith.constant {ws.partition = ["compute1"], ws.stage = 0 : i32} dense<2.000000e+00> : tensor<32x64xf32>
        %4 = arith.mulf %3, %cst {ws.partition = ["compute1"], ws.stage = 0 : i32} : tensor<32x64xf32>
        "ws.store"(%arg1, %1, %arg3, %4) {ws.partition = ["store"], ws.stage = 0 : i32} : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.partitions = [{name = "load", num_warps = 1 : i32, role = "load"}, {name = "compute", num_warps = 4 : i32, role = "compute"}, {name = "store", num_warps = 1 : i32, role = "store"}, {name = "compute1", num_warps = 4 : i32, role = "compute"}], ws.warp_specialize}
      gpu.return
    }
  }
}

