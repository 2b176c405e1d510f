// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule, ws-plan-memory)' %s | FileCheck %s
// RUN: ws-opt --split-input-file %s --emit=ptx -o /dev/null
// Epilogue tiles the compute warps write are live at the same time, from
// the epilogue's writes to their stores, so the planner lays them side by
// side, also where they lie over the K loop's rings (free once the loop is
// done). Both stores of a 128x256 matmul used to be placed at offset 0,
// and the proof then refused the plan ('memory': ring 3 overlaps ring 2).

// C and -C, two 64 KiB tiles: A's and B's rings take 192 KiB at depth 4,
// so the two C tiles lie over them, at 0 and at 64 KiB.
// CHECK-LABEL: gpu.func @two_stores
// CHECK-SAME: ws.smem_bytes = 196688 : i32
// CHECK: "ws.load"{{.*}}offset = 0 : i32, slot_bytes = 16384
// CHECK: "ws.load"{{.*}}offset = 65536 : i32, slot_bytes = 32768
// CHECK: arith.truncf{{.*}}ws.ring = {{{.*}}offset = 0 : i32, slot_bytes = 65536
// CHECK: arith.negf{{.*}}ws.ring = {{{.*}}offset = 65536 : i32, slot_bytes = 65536
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @two_stores(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x256xf16>>, %d: !ws.tensor_desc<tensor<128x256xf16>>,
                         %K: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %p = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %p : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      %neg = arith.negf %out : tensor<128x256xf16>
      "ws.store"(%d, %m, %n, %neg) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// Two accumulators and three 128x128 stores (as a dK, a dV and a copy):
// the K loop's three rings take 192 KiB at depth 4, so the three 32 KiB C
// tiles lie over them side by side, at 0, 32 and 64 KiB.
// CHECK-LABEL: gpu.func @three_stores
// CHECK-SAME: ws.smem_bytes = 196688 : i32
// CHECK: arith.truncf{{.*}}ws.ring = {{{.*}}offset = 0 : i32, slot_bytes = 32768
// CHECK: arith.truncf{{.*}}ws.ring = {{{.*}}offset = 32768 : i32, slot_bytes = 32768
// CHECK: arith.negf{{.*}}ws.ring = {{{.*}}offset = 65536 : i32, slot_bytes = 32768
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
