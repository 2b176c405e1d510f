// store-boxes: a matmul's C tile handed to the store warp one TMA box at a
// time. The tiled kernel asks for it in the source (ws.store_boxes = true
// on its K loop): its 128x256 f16 C tile (rows of 512 bytes, 128-byte
// swizzle) is four boxes of 128x64, so the C ring holds one box a slot
// (parts = 4, depth 4: the same 64 KiB as one whole slot), and the compute
// warps write, fence and publish each box before the next, while the store
// warp waits for each and stores it at the tile's column plus its own
// (n + 64 j), a bulk group each. The protocol proof runs on it (stage=plan
// ends with ws-check-protocol). The persistent kernel takes it from the
// pipeline's knob (store-boxes=true), which ws-partition-schedule writes
// on the marked loop and moves to the K loop; its store warp keeps three
// boxes' stores in flight and frees each box's slot once it has been read
// (drain 3). The third kernel's 128x64 C tile is one box, so it stays
// whole, and --ws-explain says why; so does the fourth's, stored twice
// (each store would wait for every box), and the elementwise loop's.
// Without the attribute or the knob, no ring has parts (NONE).
// RUN: ws-opt --ws-pipeline='stage=plan store-boxes=true' %s | FileCheck %s
// RUN: ws-opt --ws-pipeline='stage=plan store-boxes=true explain=true' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHY
// RUN: ws-opt %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: ws-opt --ws-pipeline=stage=plan %s | FileCheck %s --check-prefix=NONE

// CHECK-LABEL: gpu.func @tiled
// CHECK-SAME: depth = 4 : i32{{.*}}from = "compute"{{.*}}to = "store"
// CHECK-SAME: {align = 1024 : i32, channel = 1 : i32, offset = 0 : i32, parts = 4 : i32, slot_bytes = 16384 : i32, swizzle = 128 : i32, tile = tensor<128x64xf16>}
// CHECK: %[[S0:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 4 : i32, start_phase = 1 : i32}
// CHECK-NEXT: "ws.wait"(%[[S0]]#0, %[[S0]]#1) {barrier = "empty", channel = 1 : i32}
// CHECK-NEXT: "ws.write_slot"(%[[TILE:.*]], %[[S0]]#0) {part = 0 : i32, ring = 2 : i32} : (tensor<128x256xf16>, i32) -> ()
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: "ws.arrive"(%[[S0]]#0) {barrier = "full", channel = 1 : i32}
// CHECK: "ws.write_slot"(%[[TILE]], %{{.*}}) {part = 1 : i32, ring = 2 : i32}
// CHECK: "ws.write_slot"(%[[TILE]], %{{.*}}) {part = 2 : i32, ring = 2 : i32}
// CHECK: "ws.write_slot"(%[[TILE]], %{{.*}}) {part = 3 : i32, ring = 2 : i32}
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: "ws.arrive"
// CHECK: %[[F0:.*]]:2 = "ws.slot_phase"(%{{.*}}) {depth = 4 : i32, start_phase = 0 : i32}
// CHECK-NEXT: "ws.wait"(%[[F0]]#0, %[[F0]]#1) {barrier = "full", channel = 1 : i32}
// CHECK-NEXT: "ws.tma_store"(%arg2, %[[M:.*]], %[[N:.*]], %[[F0]]#0) {ring = 2 : i32}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %c64
// CHECK-NEXT: "ws.tma_store"(%arg2, %[[M]], %[[N1]], %{{.*}}) {ring = 2 : i32}
// CHECK: %[[N2:.*]] = arith.addi %[[N]], %c128
// CHECK-NEXT: "ws.tma_store"(%arg2, %[[M]], %[[N2]], %{{.*}}) {ring = 2 : i32}
// CHECK: %[[N3:.*]] = arith.addi %[[N]], %c192
// CHECK-NEXT: "ws.tma_store"(%arg2, %[[M]], %[[N3]], %{{.*}}) {ring = 2 : i32}
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0

// CHECK-LABEL: gpu.func @persistent
// CHECK-SAME: parts = 4 : i32
// CHECK: "ws.write_slot"(%{{.*}}, %{{.*}}) {part = 3 : i32, ring = 2 : i32}
// CHECK: "ws.tma_store"
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 3 {read}
// CHECK: "ws.arrive"(%{{.*}}) {barrier = "empty", channel = 1 : i32}

// CHECK-LABEL: gpu.func @one_box
// CHECK-NOT: parts =
// CHECK: gpu.return

// WHY: remark: ring 2: tensor<128x64xf16> of 16384 bytes crosses from compute to store (channel 1), one TMA box of the C tile a slot (store-boxes
// WHY: remark: store-boxes: ring 2 stays one slot a tile: its rows fit one TMA box
// WHY: remark: store-boxes: ring 2 stays one slot a tile: the tile is stored more than once (each store would wait for every box)
// WHY: remark: store-boxes: the loop is not a matmul's; only a matmul's C tile is handed to the store warp box by box, so its tiles stay whole

// The tiled kernel's compute warps: part 0's writes, its fence and its
// arrival on the first full barrier, then part 1 into the next slot (16 KiB
// on, the same addresses as part 0 plus the slot), and so on; the store
// warp stores each from its slot.
// PTX-LABEL: .entry tiled(
// PTX: st.shared.b32 [%[[A:rd[0-9]+]]],
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: mbarrier.arrive.shared.b64 {{.*}}, [ws_smem+[[FULL:[0-9]+]]];
// PTX: st.shared.b32 [%[[A]]+16384],
// PTX: fence.proxy.async.shared::cta;
// PTX-NEXT: mbarrier.arrive.shared.b64
// PTX: st.shared.b32 [%[[A]]+32768],
// PTX: st.shared.b32 [%[[A]]+49152],
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%{{.*}}, {%{{.*}}, %{{.*}}}], [ws_smem];
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%{{.*}}, {%{{.*}}, %{{.*}}}], [ws_smem+16384];
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%{{.*}}, {%{{.*}}, %{{.*}}}], [ws_smem+32768];
// PTX: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%{{.*}}, {%{{.*}}, %{{.*}}}], [ws_smem+49152];

// NONE-LABEL: gpu.func @tiled
// NONE: parts = 4 : i32
// NONE-LABEL: gpu.func @persistent
// NONE-NOT: parts =
// NONE: gpu.return
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tiled(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                    %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize, ws.store_boxes = true}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
    gpu.func @persistent(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x256xf16>>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      %tiles = arith.constant 64 : i32
      scf.for %t = %first to %tiles step %grid : i32 {
        %m, %n = "ws.tile_coords"(%t, %M, %N) {tile = array<i32: 128, 256>} : (i32, i32, i32) -> (i32, i32)
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
          scf.yield %d : tensor<128x256xf32>
        }
        %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
    gpu.func @one_box(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<64x64xf16>>,
                      %c: !ws.tensor_desc<tensor<128x64xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x64xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c64 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x64xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<64x64xf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %d : tensor<128x64xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x64xf32> to tensor<128x64xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32, tensor<128x64xf16>) -> ()
      gpu.return
    }
    gpu.func @two_stores(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                         %c: !ws.tensor_desc<tensor<128x256xf16>>, %c2: !ws.tensor_desc<tensor<128x256xf16>>,
                         %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c128 = arith.constant 128 : i32
      %c256 = arith.constant 256 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %m = arith.muli %bxi, %c128 : i32
      %n = arith.muli %byi, %c256 : i32
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      "ws.store"(%c2, %m, %n, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
    gpu.func @add(%x: !ws.tensor_desc<tensor<32x64xf32>>, %y: !ws.tensor_desc<tensor<32x64xf32>>,
                  %z: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %k = %c0 to %n step %c64 : i32 {
        %tx = "ws.load"(%x, %c0, %k) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %ty = "ws.load"(%y, %c0, %k) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tz = arith.addf %tx, %ty : tensor<32x64xf32>
        "ws.store"(%z, %c0, %k, %tz) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
