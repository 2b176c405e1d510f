// kernel add_auto
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_auto(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// kernel add_s1
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_s1(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 1 : i32}
      gpu.return
    }
  }
}

// -----
// kernel add_s2
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_s2(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 2 : i32}
      gpu.return
    }
  }
}

// -----
// kernel add_s3
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_s3(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 3 : i32}
      gpu.return
    }
  }
}

// -----
// kernel add_s4
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_s4(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %out: !ws.tensor_desc<tensor<32x64xf32>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 32 : i32
      %ccols = arith.constant 64 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %r = arith.addf %ta, %tb : tensor<32x64xf32>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 4 : i32}
      gpu.return
    }
  }
}

// -----
// kernel add_f16
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_f16(%a: !ws.tensor_desc<tensor<64x128xf16>>, %b: !ws.tensor_desc<tensor<64x128xf16>>, %out: !ws.tensor_desc<tensor<64x128xf16>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 64 : i32
      %ccols = arith.constant 128 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32) -> tensor<64x128xf16>
        %r = arith.addf %ta, %tb : tensor<64x128xf16>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<64x128xf16>>, i32, i32, tensor<64x128xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----
// kernel add_bf16_w8
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add_bf16_w8(%a: !ws.tensor_desc<tensor<16x256xbf16>>, %b: !ws.tensor_desc<tensor<16x256xbf16>>, %out: !ws.tensor_desc<tensor<16x256xbf16>>, %ynumel: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %pid = gpu.block_id x
      %pid32 = arith.index_cast %pid : index to i32
      %c0 = arith.constant 0 : i32
      %crows = arith.constant 16 : i32
      %ccols = arith.constant 256 : i32
      %x = arith.muli %pid32, %crows : i32
      scf.for %y = %c0 to %ynumel step %ccols : i32 {
        %ta = "ws.load"(%a, %x, %y) : (!ws.tensor_desc<tensor<16x256xbf16>>, i32, i32) -> tensor<16x256xbf16>
        %tb = "ws.load"(%b, %x, %y) : (!ws.tensor_desc<tensor<16x256xbf16>>, i32, i32) -> tensor<16x256xbf16>
        %r = arith.addf %ta, %tb : tensor<16x256xbf16>
        "ws.store"(%out, %x, %y, %r) : (!ws.tensor_desc<tensor<16x256xbf16>>, i32, i32, tensor<16x256xbf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
