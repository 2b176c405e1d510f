// The 8-stage kernels whose protocols had millions of states when every state
// was visited (ws-check-protocol{method=states}); test/passes/check-protocol-deep.mlir
// pins what the default method does with them.
// 2 f32 inputs, 32x64 tiles, an f8 output, 8 compute warps, 8 stages
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @in2_32x64(%in0: !ws.tensor_desc<tensor<32x64xf32>>, %in1: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf8E4M3FN>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %n step %ccols : i32 {
        %t0 = "ws.load"(%in0, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %t1 = "ws.load"(%in1, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %s1 = arith.addf %t0, %t1 : tensor<32x64xf32>
        %r = arith.truncf %s1 : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf8E4M3FN>>, i32, i32, tensor<32x64xf8E4M3FN>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}

// -----
// 3 f32 inputs, 32x64 tiles, an f8 output, 8 compute warps, 8 stages
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @in3_32x64(%in0: !ws.tensor_desc<tensor<32x64xf32>>, %in1: !ws.tensor_desc<tensor<32x64xf32>>, %in2: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf8E4M3FN>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %n step %ccols : i32 {
        %t0 = "ws.load"(%in0, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %t1 = "ws.load"(%in1, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %t2 = "ws.load"(%in2, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %s1 = arith.addf %t0, %t1 : tensor<32x64xf32>
        %s2 = arith.addf %s1, %t2 : tensor<32x64xf32>
        %r = arith.truncf %s2 : tensor<32x64xf32> to tensor<32x64xf8E4M3FN>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf8E4M3FN>>, i32, i32, tensor<32x64xf8E4M3FN>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}

// -----
// 4 f32 inputs, 16x64 tiles, an f8 output, 8 compute warps, 8 stages
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @in4_16x64(%in0: !ws.tensor_desc<tensor<16x64xf32>>, %in1: !ws.tensor_desc<tensor<16x64xf32>>, %in2: !ws.tensor_desc<tensor<16x64xf32>>, %in3: !ws.tensor_desc<tensor<16x64xf32>>, %out: !ws.tensor_desc<tensor<16x64xf8E4M3FN>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 16 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %n step %ccols : i32 {
        %t0 = "ws.load"(%in0, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t1 = "ws.load"(%in1, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t2 = "ws.load"(%in2, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t3 = "ws.load"(%in3, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %s1 = arith.addf %t0, %t1 : tensor<16x64xf32>
        %s2 = arith.addf %s1, %t2 : tensor<16x64xf32>
        %s3 = arith.addf %s2, %t3 : tensor<16x64xf32>
        %r = arith.truncf %s3 : tensor<16x64xf32> to tensor<16x64xf8E4M3FN>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<16x64xf8E4M3FN>>, i32, i32, tensor<16x64xf8E4M3FN>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}

// -----
// 6 f32 inputs, 16x64 tiles, an f8 output, 8 compute warps, 8 stages
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @in6_16x64(%in0: !ws.tensor_desc<tensor<16x64xf32>>, %in1: !ws.tensor_desc<tensor<16x64xf32>>, %in2: !ws.tensor_desc<tensor<16x64xf32>>, %in3: !ws.tensor_desc<tensor<16x64xf32>>, %in4: !ws.tensor_desc<tensor<16x64xf32>>, %in5: !ws.tensor_desc<tensor<16x64xf32>>, %out: !ws.tensor_desc<tensor<16x64xf8E4M3FN>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 16 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %n step %ccols : i32 {
        %t0 = "ws.load"(%in0, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t1 = "ws.load"(%in1, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t2 = "ws.load"(%in2, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t3 = "ws.load"(%in3, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t4 = "ws.load"(%in4, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %t5 = "ws.load"(%in5, %x, %y) : (!ws.tensor_desc<tensor<16x64xf32>>, i32, i32) -> tensor<16x64xf32>
        %s1 = arith.addf %t0, %t1 : tensor<16x64xf32>
        %s2 = arith.addf %s1, %t2 : tensor<16x64xf32>
        %s3 = arith.addf %s2, %t3 : tensor<16x64xf32>
        %s4 = arith.addf %s3, %t4 : tensor<16x64xf32>
        %s5 = arith.addf %s4, %t5 : tensor<16x64xf32>
        %r = arith.truncf %s5 : tensor<16x64xf32> to tensor<16x64xf8E4M3FN>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<16x64xf8E4M3FN>>, i32, i32, tensor<16x64xf8E4M3FN>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}

// -----
// 1-D relu, 8 compute warps, 8 stages
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @relu_1d(%x: !ws.tensor_desc<tensor<256xf32>>, %y: !ws.tensor_desc<tensor<256xf32>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cstep = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<256xf32>
      scf.for %i = %c0 to %n step %cstep : i32 {
        %t = "ws.load"(%x, %i) : (!ws.tensor_desc<tensor<256xf32>>, i32) -> tensor<256xf32>
        %r = arith.maximumf %t, %zero : tensor<256xf32>
        "ws.store"(%y, %i, %r) : (!ws.tensor_desc<tensor<256xf32>>, i32, tensor<256xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}
