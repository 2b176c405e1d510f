// ws.split_compute = true: an elementwise loop whose math falls into parts
// that share no tile gets a compute partition for each part (split_compute.c).
// RUN: ws-opt %ws_src/integration/split/two_parts.mlir --pass-pipeline='builtin.module(ws-partition-schedule{explain=true})' -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=TAGS --input-file=%t
// RUN: sed 's/, ws.split_compute = true//' %ws_src/integration/split/two_parts.mlir | ws-opt --pass-pipeline='builtin.module(ws-partition-schedule{explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNASKED
// RUN: ws-opt %ws_src/integration/split/three_parts.mlir --pass-pipeline='builtin.module(ws-partition-schedule,ws-plan-memory,ws-insert-barriers)' | FileCheck %s --check-prefix=THREE
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule,ws-plan-memory,ws-insert-barriers)' %s 2>&1 | FileCheck %s --implicit-check-not=error:

// Each part's math in its own partition; the loads stay on the load warp,
// the stores on the store warp.
// REMARK: remark: split compute: its math falls into 2 parts that share no tile: each runs in a compute partition of its own (compute, compute1, ...), of 4 warps, which waits only for its own tiles
// REMARK: remark: partitions: load (1 warp), compute (4 warps), store (1 warp), compute1 (4 warps)
// TAGS: "ws.load"{{.*}}ws.partition = ["load"]
// TAGS: "ws.load"{{.*}}ws.partition = ["load"]
// TAGS: "ws.load"{{.*}}ws.partition = ["load"]
// TAGS: arith.addf {{.*}}ws.partition = ["compute"]
// TAGS: math.exp {{.*}}ws.partition = ["compute1"]
// TAGS: arith.constant {{.*}}ws.partition = ["compute1"]
// TAGS: arith.mulf {{.*}}ws.partition = ["compute1"]
// TAGS: "ws.store"{{.*}}ws.partition = ["store"]
// TAGS: "ws.store"{{.*}}ws.partition = ["store"]

// Not asked, the remark says what the attribute would do.
// UNASKED: remark: one compute partition: its math falls into 2 parts that share no tile; ws.split_compute = true gives each part compute warps of its own

// Three parts of 8 warps: the compute partitions take warps 0-23 in table
// order, the producers warpgroup 6, and every compute warp the same registers.
// THREE: ws.block_threads = 896 : i32
// THREE-SAME: ws.maxnreg = 72 : i32
// THREE: ws.partitions = [{first_warp = 24 : i32, name = "load", num_warps = 1 : i32, registers = 24 : i32, role = "load"}, {first_warp = 0 : i32, name = "compute", num_warps = 8 : i32, registers = 80 : i32, role = "compute"}, {first_warp = 25 : i32, name = "store", num_warps = 1 : i32, registers = 24 : i32, role = "store"}, {first_warp = 8 : i32, name = "compute1", num_warps = 8 : i32, registers = 80 : i32, role = "compute"}, {first_warp = 16 : i32, name = "compute2", num_warps = 8 : i32, registers = 80 : i32, role = "compute"}]

// One part: the sum reads both loads, so nothing splits.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      // CHECK: partition-schedule-split-compute.mlir:[[@LINE+1]]:7: error: 'scf.for' op asks for ws.split_compute = true, but its compute cannot be split: every op of its math reaches every other through the tiles they share (a tile that two outputs both read joins them): it is one part; drop ws.split_compute
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %e = math.exp %ta : tensor<32x64xf32>
        %s = arith.addf %e, %tb : tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %s) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.split_compute = true}
      gpu.return
    }
  }
}

// -----

// A row kernel's warps share its rows: its compute stays one partition.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %b: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c32 = arith.constant 32 : i32
      // CHECK: partition-schedule-split-compute.mlir:[[@LINE+1]]:7: error: 'scf.for' op asks for ws.split_compute = true, but its compute cannot be split: its loop works on rows (ws.reduce, ws.broadcast or row vectors), whose warps share each row; drop ws.split_compute
      scf.for %y = %c0 to %n step %c32 : i32 {
        %ta = "ws.load"(%a, %y, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %tb = "ws.load"(%b, %y, %c0) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %s = "ws.reduce"(%ta) {axis = 1 : i32, kind = "max"} : (tensor<32x64xf32>) -> tensor<1x32xf32>
        %m = "ws.broadcast"(%s) {axis = 0 : i32} : (tensor<1x32xf32>) -> tensor<32x64xf32>
        %d = arith.subf %ta, %m : tensor<32x64xf32>
        %e = math.exp %tb : tensor<32x64xf32>
        "ws.store"(%a, %y, %c0, %d) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
        "ws.store"(%b, %y, %c0, %e) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.split_compute = true}
      gpu.return
    }
  }
}

// -----

// A matmul loop's consumers share the accumulator.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<64x64xf16>>, %b: !ws.tensor_desc<tensor<64x64xf16>>, %c: !ws.tensor_desc<tensor<64x64xf16>>, %k: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      // CHECK: partition-schedule-split-compute.mlir:[[@LINE+1]]:14: error: 'scf.for' op asks for ws.split_compute = true, but its compute cannot be split: its loop is a matmul loop, whose consumer warpgroups share the accumulator; drop ws.split_compute
      %acc = scf.for %kk = %c0 to %k step %c64 iter_args(%x = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %kk) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tb = "ws.load"(%b, %kk, %c0) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %y = "ws.dot"(%ta, %tb, %x) : (tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %y : tensor<64x64xf32>
      } {ws.warp_specialize, ws.split_compute = true}
      %h = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xf16>
      "ws.store"(%c, %c0, %c0, %h) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
      gpu.return
    }
  }
}

// -----

// Four parts of 8 warps and the producers' warpgroup: 36 warps, more than a
// block runs.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<64x64xf16>>, %b: !ws.tensor_desc<tensor<64x64xf16>>, %c: !ws.tensor_desc<tensor<64x64xf16>>, %d: !ws.tensor_desc<tensor<64x64xf16>>, %n: i32) kernel attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      // CHECK: partition-schedule-split-compute.mlir:[[@LINE+1]]:7: error: 'scf.for' op warp plan does not fit: 4 compute partition(s) of 32 warps in all and a producer warpgroup need 1152 threads; a block runs at most 1024: give each compute partition fewer warps (ws.num_warps), or split fewer parts
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %tc = "ws.load"(%c, %c0, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %td = "ws.load"(%d, %c0, %y) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32) -> tensor<64x64xf16>
        %ea = math.exp %ta : tensor<64x64xf16>
        %eb = math.exp %tb : tensor<64x64xf16>
        %ec = math.exp %tc : tensor<64x64xf16>
        %ed = math.exp %td : tensor<64x64xf16>
        "ws.store"(%a, %c0, %y, %ea) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
        "ws.store"(%b, %c0, %y, %eb) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
        "ws.store"(%c, %c0, %y, %ec) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
        "ws.store"(%d, %c0, %y, %ed) : (!ws.tensor_desc<tensor<64x64xf16>>, i32, i32, tensor<64x64xf16>) -> ()
      } {ws.warp_specialize, ws.split_compute = true}
      gpu.return
    }
  }
}

// -----

// The attribute is a bool on the marked loop.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%a: !ws.tensor_desc<tensor<32x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      // CHECK: partition-schedule-split-compute.mlir:[[@LINE+1]]:7: error: 'scf.for' op ws.split_compute = 1 : i32; expected true or false
      scf.for %y = %c0 to %n step %c64 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32) -> tensor<32x64xf32>
        %e = math.exp %ta : tensor<32x64xf32>
        "ws.store"(%a, %c0, %y, %e) : (!ws.tensor_desc<tensor<32x64xf32>>, i32, i32, tensor<32x64xf32>) -> ()
      } {ws.warp_specialize, ws.split_compute = 1 : i32}
      gpu.return
    }
  }
}
