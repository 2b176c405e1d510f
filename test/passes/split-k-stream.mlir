// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k{explain=true})' 2>&1 | FileCheck %s
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k,ws-partition-schedule)' | FileCheck %s --check-prefix=SCHED
// RUN: ws-opt %s --emit=ptx -o - | FileCheck %s --check-prefix=PTX
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k,ws-partition-schedule,ws-plan-memory,ws-insert-barriers,ws-specialize,ws-check-protocol{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROOF
// RUN: ws-opt %S/../../integration/matmul_persistent.mlir --pass-pipeline='builtin.module(ws-split-k{split-k=stream explain=true})' 2>&1 | FileCheck %s --check-prefix=KNOB
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-split-k,ws-partition-schedule{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: not ws-opt %S/Inputs/check-protocol-stream-k-miscount.mlir --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISCOUNT
// ws-split-k on a persistent matmul's tile loop marked ws.split_k =
// "stream": stream-K. The tile loop runs over units: the first tiles
// whole, round-robin; then three units per block, each a part of a tile
// (ws.stream_k_unit says which part), the K loop over that part's steps,
// starting where the other blocks are in K; ws.stream_k_sum after it; a
// unit that ends its tile stores C.

// CHECK: remark: stream-K: with T tiles on G blocks (T >= G), the first (ceil(T / G) - 2) x G tiles run whole, round-robin (none when T < 2G); the other tiles' K steps are shared out in G equal runs, one per block, each at most three units (parts of tiles, run last tile first and in step with the other blocks' K); a tile split over two blocks is finished by the one holding its end, which adds the other's f32 partial sum from the workspace. With T < G, or no K step, every tile runs whole (the workspace: 65664 bytes per block of the grid, a new i64 argument)
// CHECK: gpu.func @stream(%{{.*}}, %{{.*}}, %{{.*}}, %[[M:.*]]: i32, %[[N:.*]]: i32, %[[K:.*]]: i32, %[[W:.*]]: i64) kernel attributes {ws.num_warps = 8 : i32, ws.workspace_per_block = 65664 : i32}
// CHECK: %[[TILES:.*]] = arith.muli
// CHECK: %[[BLOCK:.*]] = arith.index_cast %block_id_x
// CHECK: %[[GRID:.*]] = arith.index_cast %grid_dim_x
// CHECK: %[[KS:.*]] = arith.divui %{{.*}}, %c64_i32
// The whole tiles: all but the last two waves (none below two waves);
// stream-K only from one wave up and with K steps to share:
// CHECK: %[[WAVES:.*]] = arith.divui %{{.*}}, %[[GRID]]
// CHECK: %[[TWO:.*]] = arith.muli %[[GRID]], %c2
// CHECK: %[[LESS:.*]] = arith.subi %[[WAVES]], %c2
// CHECK: %[[DP:.*]] = arith.muli %[[LESS]], %[[GRID]]
// CHECK: %[[PAST2:.*]] = arith.cmpi uge, %[[TILES]], %[[TWO]]
// CHECK: %[[WHOLE:.*]] = arith.select %[[PAST2]], %[[DP]], %c0
// CHECK: %[[WAVE:.*]] = arith.cmpi uge, %[[TILES]], %[[GRID]]
// CHECK: %[[STEPS:.*]] = arith.cmpi ugt, %[[KS]], %c0
// CHECK: %[[ON:.*]] = arith.andi %[[STEPS]], %[[WAVE]]
// CHECK: %[[THREE:.*]] = arith.muli %[[GRID]], %c3
// CHECK: %[[PLUS:.*]] = arith.addi %[[WHOLE]], %[[THREE]]
// CHECK: %[[UNITS:.*]] = arith.select %[[ON]], %[[PLUS]], %[[TILES]]
// CHECK: %[[FIRST:.*]] = arith.select %[[ON]], %[[WHOLE]], %[[TILES]]
// CHECK: scf.for %[[U:.*]] = %[[BLOCK]] to %[[UNITS]] step %[[GRID]]
// CHECK-NEXT: %[[UNIT:.*]]:4 = "ws.stream_k_unit"(%[[U]], %[[FIRST]], %[[TILES]], %[[KS]], %[[GRID]])
// The K loop runs the unit's steps, from its starting step, wrapping:
// CHECK-NEXT: %[[N_STEPS:.*]] = arith.subi %[[UNIT]]#2, %[[UNIT]]#1
// CHECK-NEXT: %[[SPAN:.*]] = arith.muli %[[N_STEPS]], %c64_i32
// CHECK-NEXT: %[[IN:.*]] = arith.subi %[[UNIT]]#3, %[[UNIT]]#1
// CHECK-NEXT: %[[ROT:.*]] = arith.muli %[[IN]], %c64_i32
// CHECK-NEXT: %[[KLO:.*]] = arith.muli %[[UNIT]]#1, %c64_i32
// The user's tile math now reads the unit's tile:
// CHECK-NEXT: arith.divui %[[UNIT]]#0, %{{.*}} : i32
// CHECK: %[[ACC:.*]] = scf.for %[[KK:.*]] = %c0_i32 to %[[SPAN]] step %c64_i32
// CHECK-NEXT: %[[AT:.*]] = arith.addi %[[KK]], %[[ROT]]
// CHECK-NEXT: %[[BACK:.*]] = arith.subi %[[AT]], %[[SPAN]]
// CHECK-NEXT: %[[PAST:.*]] = arith.cmpi uge, %[[AT]], %[[SPAN]]
// CHECK-NEXT: %[[WRAP:.*]] = arith.select %[[PAST]], %[[BACK]], %[[AT]]
// CHECK-NEXT: %[[KABS:.*]] = arith.addi %[[WRAP]], %[[KLO]]
// CHECK-NEXT: "ws.load"(%{{.*}}, %{{.*}}, %[[KABS]])
// CHECK: %[[SUM:.*]] = "ws.stream_k_sum"(%[[ACC]], %[[W]], %[[UNIT]]#1, %[[UNIT]]#2, %[[KS]])
// CHECK: %[[ENDS:.*]] = arith.cmpi eq, %[[UNIT]]#2, %[[KS]]
// CHECK: arith.truncf %[[SUM]]
// CHECK: %[[COL:.*]] = arith.select %[[ENDS]], %[[NCOL:.*]], %c-1073741824_i32
// CHECK: "ws.store"(%{{.*}}, %{{.*}}, %[[COL]], %{{.*}})
// CHECK-NOT: ws.split_k =

// Every partition computes the unit; the sum runs in the compute
// partition, the store's test where the store is.
// SCHED: "ws.stream_k_unit"{{.*}}ws.partition = ["load", "compute", "store"]
// SCHED: "ws.stream_k_sum"{{.*}}ws.partition = ["compute"]
// SCHED: arith.cmpi eq{{.*}}ws.partition = ["store"]

// The unit's arithmetic in 64 bits, the exchange through the block's
// slot: the release flag after the warpgroup's barrier, the owner's
// acquire wait on the previous block's, its reads at L2.
// PTX-DAG: mov.u32 {{.*}}, %ctaid.x;
// PTX-DAG: div.u64
// PTX-DAG: st.global.v4.f32
// PTX-DAG: st.release.gpu.global.u32
// PTX-DAG: ld.acquire.gpu.global.u32
// PTX-DAG: ld.global.cg.v4.f32

// The proof runs units of unequal K steps besides the equal runs.
// PROOF: remark: protocol proved: {{.*}}, 40 stream-K runs (units of unequal K steps, tiles of 1 to 3)

// The five scalar ops of a unit's K offset stand at the first ws.load:
// their placement is remarked once.
// ONCE: split-k-stream.mlir:[[LOAD:[0-9]+]]:17: remark: partition load: scalar arithmetic is copied into each partition that uses its result
// ONCE-NOT: split-k-stream.mlir:[[LOAD]]:17: remark: partition load: scalar arithmetic
// ONCE: split-k-stream.mlir:[[LOAD]]:17: remark: partition load: a TMA load

// split-k=stream: a tile loop without ws.split_k, split as "stream" would.
// KNOB: matmul_persistent.mlir:46:7: remark: stream-K:
// KNOB: "ws.stream_k_unit"

// A ping-pong plan (its consumers take every other unit) whose
// consumers advance their K count by (units so far) x (this unit's steps)
// instead of adding each unit's steps: the same count when every unit
// runs as many steps, so the equal runs pass it (a stream-K run of units
// of 1, 2 and 1 steps finds the miscount, rule 'balance'). A product of
// two counts of the iteration repeats with no period, so rule 'trips'
// refuses it before any run.
// MISCOUNT: error: 'arith.muli' op breaks the protocol rule 'trips': it multiplies two values of the loop's iteration

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @stream(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<128x64xf16>>,
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
      } {ws.warp_specialize, ws.split_k = "stream"}
      gpu.return
    }
  }
}
