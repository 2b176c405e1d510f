// The pipeline's num-stages= and overlap= (an autotuner's knobs): each
// becomes the attribute it stands for on the marked loop, where the source
// has none, and the later passes read it from the IR. A value the source
// gives wins; overlap= leaves a loop that is not a persistent tile loop
// alone; a depth that does not fit is the planner's located budget error.
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule)' | FileCheck %s --check-prefix=PLANNER --implicit-check-not=ws.num_stages
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{num-stages=3 overlap=cooperative},ws-plan-memory)' | FileCheck %s --check-prefix=KNOBS
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{num-stages=3 overlap=pingpong})' | FileCheck %s --check-prefix=SOURCE
// RUN: not ws-opt %S/partition-schedule-pingpong.mlir --ws-pipeline='num-stages=8' --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not ws-opt %s --ws-pipeline='overlap=sideways' --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// Where overlap= is left alone, explain says why.
// RUN: ws-opt %s --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{overlap=pingpong explain=true})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNUSED
// RUN: not ws-opt %s --ws-pipeline='l2-keep=c' --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-L2
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{store-boxes=true})' | FileCheck %s --check-prefix=BOXES
// RUN: not ws-opt %s --ws-pipeline='store-boxes=maybe' --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-BOXES
// Options joined by a comma (as other tools take them) are one bad value; the error says spaces.
// RUN: not ws-opt %s --ws-pipeline='stage=plan,store-boxes=true' --emit=mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMMA
// A bool takes the spellings LLVM's command-line bools take: TRUE, False...
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{store-boxes=TRUE})' | FileCheck %s --check-prefix=BOXES
// RUN: ws-opt %S/partition-schedule-pingpong.mlir --pass-pipeline='builtin.module(ws-verify,ws-partition-schedule{store-boxes=False})' | FileCheck %s --check-prefix=NO-BOXES
// (l2-keep=, the third knob, is pinned by insert-barriers-matmul-l2.mlir;
// store-boxes=, the fourth, by insert-barriers-store-boxes.mlir.)

// PLANNER: ws.overlap = "pingpong"

// UNUSED: knob-options.mlir:{{[0-9]+}}:14: remark: overlap=pingpong: not applied here: the loop is not a persistent tile loop holding a K loop (overlap picks how a persistent matmul's consumer warpgroups take its tiles; a tiled kernel's block computes one tile)
// UNUSED: knob-options.mlir:{{[0-9]+}}:7: remark: overlap=pingpong: not applied here: the loop is not a persistent tile loop

// KNOBS: ws.channels = [{depth = 3 : i32{{.*}}ws.num_stages = 3 : i32
// KNOBS: ws.overlap = "cooperative"

// SOURCE-LABEL: gpu.func @tiled
// SOURCE-NOT: ws.overlap
// SOURCE: ws.num_stages = 2 : i32
// SOURCE-NOT: ws.overlap
// SOURCE-LABEL: gpu.func @elementwise
// SOURCE-NOT: ws.overlap
// SOURCE: ws.num_stages = 3 : i32
// SOURCE-NOT: ws.overlap

// BUDGET: partition-schedule-pingpong.mlir:50:14: error: 'scf.for' op shared memory plan needs 328912 bytes but the budget is 232448
// BAD: option 'overlap' takes "", pingpong or cooperative, got 'sideways'
// BAD-L2: option 'l2-keep' takes "", a or b, got 'c'

// store-boxes=true: ws.store_boxes = true on the persistent kernel's K
// loop (moved there from the tile loop with the mark), not on the tile loop.
// BOXES: role = "store"}], ws.store_boxes = true, ws.warp_specialize}
// BOXES-NOT: ws.store_boxes
// BOXES: } {ws.overlap = "pingpong", ws.tile_loop}
// BAD-BOXES: option 'store-boxes' takes true or false (or 1 or 0), got 'maybe'
// NO-BOXES: gpu.func
// COMMA: option 'stage' takes plan, lower or all, got 'plan,store-boxes=true' (options are separated by spaces, not commas: 'stage=... other=...')
// NO-BOXES-NOT: ws.store_boxes

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @tiled(%a: !ws.tensor_desc<tensor<128x64xf16>>, %b: !ws.tensor_desc<tensor<256x64xf16>>,
                    %c: !ws.tensor_desc<tensor<128x256xf16>>, %K: i32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %acc = scf.for %k = %c0 to %K step %c64 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "ws.load"(%a, %c0, %k) : (!ws.tensor_desc<tensor<128x64xf16>>, i32, i32) -> tensor<128x64xf16>
        %tb = "ws.load"(%b, %c0, %k) : (!ws.tensor_desc<tensor<256x64xf16>>, i32, i32) -> tensor<256x64xf16>
        %d = "ws.dot"(%ta, %tb, %acc0) {transpose_b} : (tensor<128x64xf16>, tensor<256x64xf16>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %d : tensor<128x256xf32>
      } {ws.warp_specialize, ws.num_stages = 2 : i32}
      %out = arith.truncf %acc : tensor<128x256xf32> to tensor<128x256xf16>
      "ws.store"(%c, %c0, %c0, %out) : (!ws.tensor_desc<tensor<128x256xf16>>, i32, i32, tensor<128x256xf16>) -> ()
      gpu.return
    }
    gpu.func @elementwise(%x: !ws.tensor_desc<tensor<64x64xf32>>, %y: !ws.tensor_desc<tensor<64x64xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c64 = arith.constant 64 : i32
      scf.for %i = %c0 to %n step %c64 : i32 {
        %t = "ws.load"(%x, %i, %c0) : (!ws.tensor_desc<tensor<64x64xf32>>, i32, i32) -> tensor<64x64xf32>
        "ws.store"(%y, %i, %c0, %t) : (!ws.tensor_desc<tensor<64x64xf32>>, i32, i32, tensor<64x64xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }
  }
}
