// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k{explain=true})' 2>&1 | FileCheck %s
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k,ws-partition-schedule)' | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize,ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROOF
// RUN: ws-opt %S/../../integration/matmul_persistent.mlir --pass-pipeline='builtin.module(ws-split-k{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// OFF: matmul_persistent.mlir:46:7: remark: split-K: off (ws.split_k = true on this tile loop splits each tile's K range over blocks when the grid has more blocks than tiles, a thin output's case; the kernel then takes a workspace argument, so ws does not add it unasked)
// ws-split-k on a persistent matmul's tile loop marked ws.split_k = true:
// the loop runs over units (a tile's K range split over blocks), every unit
// the same number of K steps; ws.split_k_sum after the K loop; only the
// tile's last split stores C.

// CHECK: remark: split-K: each tile's K range is split over up to 4 blocks when the grid has more blocks than tiles (splits = grid / tiles, each of at least 8 K steps); a tile's last split adds the others' f32 partial sums in a fixed order from the workspace and alone stores C (the workspace: 65664 bytes per block of the grid, a new i64 argument)
// The workspace is the kernel's new last argument; its size per block is
// an attribute the launcher reads.
// CHECK: gpu.func @split(%{{.*}}, %{{.*}}, %{{.*}}, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[K:.*]]: i32, %[[W:.*]]: i64) kernel attributes {ws.num_warps = 8 : i32, ws.workspace_per_block = 65664 : i32}
// The K steps, the splits (grid / tiles, at most K steps / 8 and 4, at least 1) and their span:
// CHECK: %[[BLOCK:.*]] = arith.index_cast %block_id_x
// CHECK: %[[GRID:.*]] = arith.index_cast %grid_dim_x
// CHECK: %[[KS:.*]] = arith.divui %{{.*}}, %c64_i32
// CHECK: %[[TILES1:.*]] = arith.maxui %[[TILES:.*]], %c1
// CHECK: %[[PER:.*]] = arith.divui %[[GRID]], %[[TILES1]]
// CHECK: %[[BYK:.*]] = arith.divui %[[KS]], %c8
// CHECK: %[[CAP:.*]] = arith.minui %[[BYK]], %c4
// CHECK: %[[MIN:.*]] = arith.minui %[[PER]], %[[CAP]]
// CHECK: %[[S:.*]] = arith.maxui %[[MIN]], %c1
// CHECK: %[[STEPS:.*]] = arith.divui %{{.*}}, %[[S]]
// CHECK: %[[SPAN:.*]] = arith.muli %[[STEPS]], %c64_i32
// CHECK: %[[UNITS:.*]] = arith.muli %[[TILES]], %[[S]]
// CHECK: scf.for %[[U:.*]] = %[[BLOCK]] to %[[UNITS]] step %[[GRID]]
// CHECK-NEXT: %[[T:.*]] = arith.divui %[[U]], %[[S]]
// CHECK-NEXT: %[[SPLIT:.*]] = arith.remui %[[U]], %[[S]]
// CHECK-NEXT: %[[KLO:.*]] = arith.muli %[[SPLIT]], %[[SPAN]]
// The user's tile math now reads the tile of the unit:
// CHECK-NEXT: arith.divui %[[T]], %[[TILES_N:.*]] : i32
// CHECK: %[[ACC:.*]] = scf.for %[[KK:.*]] = %c0_i32 to %[[SPAN]] step %c64_i32
// CHECK-NEXT: %[[KABS:.*]] = arith.addi %[[KK]], %[[KLO]]
// CHECK-NEXT: "ws.load"(%{{.*}}, %{{.*}}, %[[KABS]])
// CHECK: %[[SUM:.*]] = "ws.split_k_sum"(%[[ACC]], %[[W]], %[[U]], %[[S]])
// CHECK: %[[LAST:.*]] = arith.subi %[[S]], %c1
// CHECK: %[[OWNER:.*]] = arith.cmpi eq, %[[SPLIT]], %[[LAST]]
// CHECK: arith.truncf %[[SUM]]
// CHECK: %[[COL:.*]] = arith.select %[[OWNER]], %[[NCOL:.*]], %c-1073741824_i32
// CHECK: "ws.store"(%{{.*}}, %{{.*}}, %[[COL]], %{{.*}})
// CHECK-NOT: ws.split_k =

// The sum runs in the compute partition, the owner's test where the store is.
// SCHED: "ws.split_k_sum"{{.*}}ws.partition = ["compute"]
// SCHED: arith.cmpi eq{{.*}}ws.partition = ["store"]

// The exchange: each thread's 16-byte pieces, a release flag after the
// warpgroup's named barrier; the owner's acquire wait, then reads at L2.
// PTX-DAG: st.global.v4.f32
// PTX-DAG: st.release.gpu.global.u32
// PTX-DAG: ld.acquire.gpu.global.u32
// PTX-DAG: ld.global.cg.v4.f32
// PTX-DAG: bar.sync {{.*}}, 128;
// PROOF: remark: protocol proved

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @split(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
                    %c: !ws.tensor_desc<tensor<128x128xf16>>, %M: i32, %N: i32, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %c127 = arith.constant 127 : i32
      %c128 = arith.constant 128 : i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %m_up = arith.addi %M, %c127 : i32
      %tiles_m = arith.divui %m_up, %c128 : i32
      %n_up = arith.addi %N, %c127 : i32
      %tiles_n = arith.divui %n_up, %c128 : i32
      %num_tiles = arith.muli %tiles_m, %tiles_n : i32
      %bx = gpu.block_id x
      %gx = gpu.grid_dim x
      %first = arith.index_cast %bx : index to i32
      %grid = arith.index_cast %gx : index to i32
      scf.for %t = %first to %num_tiles step %grid : i32 {
        %tm = arith.divui %t, %tiles_n : i32
        %tn = arith.remui %t, %tiles_n : i32
        %m = arith.muli %tm, %c128 : i32
        %n = arith.muli %tn, %c128 : i32
        %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
          %ta = "ws.load"(%a, %m, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %tb = "ws.load"(%b, %n, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
          %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<128x64xf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
          scf.yield %d : tensor<128x128xf32>
        }
        %out = arith.truncf %acc : tensor<128x128xf32> to tensor<128x128xf16>
        "ws.store"(%c, %m, %n, %out) : (!ws.tensor_desc<tensor<128x128xf16>>, i32, i32, tensor<128x128xf16>) -> ()
      } {ws.warp_specialize, ws.split_k = true}
      gpu.return
    }
  }
}
