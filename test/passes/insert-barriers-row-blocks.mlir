// ws-plan-memory and ws-insert-barriers on a row kernel's loop over blocks
// of rows: every ring gets one slot, and the kernel takes as many blocks per
// SM (up to 4) as leave the entry register cap at least twice the elements
// a compute thread holds of its largest tile.
// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan %s | FileCheck %s
// RUN: ws-opt --split-input-file --ws-pipeline=stage=plan --ws-explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// 4 x 1024 over 4 compute warps: 32 elements a thread; 4 blocks of 256
// threads leave 64 registers each.
// CHECK-LABEL: gpu.func @rmsnorm
// CHECK-SAME: ws.blocks_per_sm = 4 : i32
// CHECK-SAME: ws.maxnreg = 64 : i32
// CHECK-COUNT-3: depth = 1 : i32
// WHY: remark: ring depths: 1 for every channel: a loop over blocks of rows takes more blocks per SM rather than deeper rings
// WHY: remark: registers: 4 block(s) per SM (the fewer of 4 for a loop over blocks of rows: the most, up to 4, whose entry cap is at least twice the 32 elements a compute thread holds of a tile, and the {{[0-9]+}} that shared memory allows); entry cap 64 = 65536 / 4 / 256 threads

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @rmsnorm(%x_desc: !ws.tensor_desc<tensor<4x1024xbf16>>, %w_desc: !ws.tensor_desc<tensor<1x1024xbf16>>, %y_desc: !ws.tensor_desc<tensor<4x1024xbf16>>, %m: i32, %eps: f32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 4 : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
      %p_w = "ws.load"(%w_desc, %c0, %c0) : (!ws.tensor_desc<tensor<1x1024xbf16>>, i32, i32) -> tensor<1x1024xbf16>
      scf.for %r0 = %first to %m step %step : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c0) : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32) -> tensor<4x1024xbf16>
        %wf = arith.extf %p_w : tensor<1x1024xbf16> to tensor<1x1024xf32>
        %x = arith.extf %t_x : tensor<4x1024xbf16> to tensor<4x1024xf32>
        %sq = arith.mulf %x, %x : tensor<4x1024xf32>
        %mss = "ws.reduce"(%sq) {kind = "sum", axis = 1 : i32} : (tensor<4x1024xf32>) -> tensor<1x4xf32>
        %msn = arith.constant dense<0.0009765625> : tensor<1x4xf32>
        %ms = arith.mulf %mss, %msn : tensor<1x4xf32>
        %rse = tensor.splat %eps : tensor<1x4xf32>
        %rsv = arith.addf %ms, %rse : tensor<1x4xf32>
        %rs = math.rsqrt %rsv : tensor<1x4xf32>
        %rb = "ws.broadcast"(%rs) {axis = 0 : i32} : (tensor<1x4xf32>) -> tensor<4x1024xf32>
        %wb = "ws.broadcast"(%wf) {axis = 1 : i32} : (tensor<1x1024xf32>) -> tensor<4x1024xf32>
        %xn = arith.mulf %x, %rb : tensor<4x1024xf32>
        %yf = arith.mulf %xn, %wb : tensor<4x1024xf32>
        %y = arith.truncf %yf : tensor<4x1024xf32> to tensor<4x1024xbf16>
        "ws.store"(%y_desc, %r0, %c0, %y) : (!ws.tensor_desc<tensor<4x1024xbf16>>, i32, i32, tensor<4x1024xbf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// 1 x 8192 over 8 compute warps: 32 elements a thread; 3 blocks of 384
// threads would leave 56 registers, 2 leave 80.
// CHECK-LABEL: gpu.func @rmsnorm_long
// CHECK-SAME: ws.blocks_per_sm = 2 : i32
// CHECK-SAME: ws.maxnreg = 80 : i32
// WHY: registers: 2 block(s) per SM (the fewer of 2 for a loop over blocks of rows

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @rmsnorm_long(%x_desc: !ws.tensor_desc<tensor<1x8192xbf16>>, %w_desc: !ws.tensor_desc<tensor<1x8192xbf16>>, %y_desc: !ws.tensor_desc<tensor<1x8192xbf16>>, %m: i32, %eps: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 1 : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
      %p_w = "ws.load"(%w_desc, %c0, %c0) : (!ws.tensor_desc<tensor<1x8192xbf16>>, i32, i32) -> tensor<1x8192xbf16>
      scf.for %r0 = %first to %m step %step : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c0) : (!ws.tensor_desc<tensor<1x8192xbf16>>, i32, i32) -> tensor<1x8192xbf16>
        %wf = arith.extf %p_w : tensor<1x8192xbf16> to tensor<1x8192xf32>
        %x = arith.extf %t_x : tensor<1x8192xbf16> to tensor<1x8192xf32>
        %sq = arith.mulf %x, %x : tensor<1x8192xf32>
        %mss = "ws.reduce"(%sq) {kind = "sum", axis = 1 : i32} : (tensor<1x8192xf32>) -> tensor<1x1xf32>
        %msn = arith.constant dense<0.0001220703125> : tensor<1x1xf32>
        %ms = arith.mulf %mss, %msn : tensor<1x1xf32>
        %rse = tensor.splat %eps : tensor<1x1xf32>
        %rsv = arith.addf %ms, %rse : tensor<1x1xf32>
        %rs = math.rsqrt %rsv : tensor<1x1xf32>
        %rb = "ws.broadcast"(%rs) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x8192xf32>
        %wb = "ws.broadcast"(%wf) {axis = 1 : i32} : (tensor<1x8192xf32>) -> tensor<1x8192xf32>
        %xn = arith.mulf %x, %rb : tensor<1x8192xf32>
        %yf = arith.mulf %xn, %wb : tensor<1x8192xf32>
        %y = arith.truncf %yf : tensor<1x8192xf32> to tensor<1x8192xbf16>
        "ws.store"(%y_desc, %r0, %c0, %y) : (!ws.tensor_desc<tensor<1x8192xbf16>>, i32, i32, tensor<1x8192xbf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}

// -----

// 1 x 8192 f32 over 4 compute warps: 64 elements a thread take 128
// registers, which 2 blocks leave.
// CHECK-LABEL: gpu.func @softmax_wide
// CHECK-SAME: ws.blocks_per_sm = 2 : i32
// CHECK-SAME: ws.maxnreg = 128 : i32
// WHY: registers: 2 block(s) per SM (the fewer of 2 for a loop over blocks of rows: the most, up to 4, whose entry cap is at least twice the 64 elements

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @softmax_wide(%x_desc: !ws.tensor_desc<tensor<1x8192xf32>>, %y_desc: !ws.tensor_desc<tensor<1x8192xf32>>, %m: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %bid = gpu.block_id x
      %grid = gpu.grid_dim x
      %b = arith.index_cast %bid : index to i32
      %g = arith.index_cast %grid : index to i32
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 1 : i32
      %first = arith.muli %b, %cr : i32
      %step = arith.muli %g, %cr : i32
      scf.for %r0 = %first to %m step %step : i32 {
        %t_x = "ws.load"(%x_desc, %r0, %c0) : (!ws.tensor_desc<tensor<1x8192xf32>>, i32, i32) -> tensor<1x8192xf32>
        %mx = "ws.reduce"(%t_x) {kind = "max", axis = 1 : i32} : (tensor<1x8192xf32>) -> tensor<1x1xf32>
        %mb = "ws.broadcast"(%mx) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x8192xf32>
        %d = arith.subf %t_x, %mb : tensor<1x8192xf32>
        %l2e = arith.constant dense<1.44269504> : tensor<1x8192xf32>
        %dl = arith.mulf %d, %l2e : tensor<1x8192xf32>
        %e = math.exp2 %dl fastmath<afn> : tensor<1x8192xf32>
        %s = "ws.reduce"(%e) {kind = "sum", axis = 1 : i32} : (tensor<1x8192xf32>) -> tensor<1x1xf32>
        %one = arith.constant dense<1.0> : tensor<1x1xf32>
        %inv = arith.divf %one, %s : tensor<1x1xf32>
        %ib = "ws.broadcast"(%inv) {axis = 0 : i32} : (tensor<1x1xf32>) -> tensor<1x8192xf32>
        %yf = arith.mulf %e, %ib : tensor<1x8192xf32>
        "ws.store"(%y_desc, %r0, %c0, %yf) : (!ws.tensor_desc<tensor<1x8192xf32>>, i32, i32, tensor<1x8192xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
