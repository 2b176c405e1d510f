// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory{smem-budget=20000})' %s 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory{smem-budget=40000})' %ws_src/integration/matmul.mlir 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory{smem-budget=232449})' %s 2>&1 | FileCheck %s --check-prefix=OVER-CHIP
// RUN: sed 's/{ws.warp_specialize}/{ws.warp_specialize, ws.num_stages = 1 : i32}/' %ws_src/integration/matmul.mlir > %t.mlir
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %t.mlir 2>&1 | FileCheck %s --check-prefix=STAGES1
// RUN: not ws-opt --pass-pipeline='builtin.module(ws-partition-schedule, ws-plan-memory)' %S/Inputs/plan-memory-huge.mlir 2>&1 | FileCheck %S/Inputs/plan-memory-huge.mlir --check-prefix=HUGE
// Over budget is an error at the loop that names every buffer, its bytes
// and its offset. A matmul too big even at depth 2 with its C tile over the
// A and B rings (offset 0) lists all three:
// MATMUL: matmul.mlir:19:14: error: 'scf.for' op shared memory plan needs 98352 bytes but the budget is 40000 bytes (smem-budget=40000); load smaller tiles (the rings are already at their least depth): ring 0 (ws.load tensor<128x64xf16> at line 20:15, load -> compute): 2 x 16384 = 32768 bytes at offset 0; ring 1 (ws.load tensor<256x64xf16> at line 21:15, load -> compute): 2 x 32768 = 65536 bytes at offset 32768; ring 2 (arith.truncf tensor<128x256xf16> at line 25:14, compute -> store): 1 x 65536 = 65536 bytes at offset 0; barriers: 48 bytes
// A budget past the chip's is refused: the kernel planned for it could
// not launch.
// OVER-CHIP: error: 'scf.for' op smem-budget=232449 is more shared memory than sm_90a gives a block (232448 bytes): a kernel planned for it could not launch
// A matmul loop never gets one stage: its consumers free a step's slot only
// after the next step's wait, so one slot would deadlock; ws.num_stages = 1
// on it is refused:
// STAGES1: .mlir:19:14: error: 'scf.for' op has ws.num_stages = 1 (the source's, or num-stages=1 where it sets none), but a matmul loop needs at least 2 stages
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @big(%a: !ws.tensor_desc<tensor<128x128xf32>>, %b: !ws.tensor_desc<tensor<128x128xf32>>,
                  %c: !ws.tensor_desc<tensor<128x128xf32>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c128 = arith.constant 128 : i32
      // OPTION: plan-memory-budget.mlir:[[@LINE+2]]:7: error: 'scf.for' op shared memory plan needs 786560 bytes but the budget is 20000 bytes (smem-budget=20000); lower ws.num_stages (4) or load smaller tiles: ring 0 (ws.load tensor<128x128xf32> at line [[@LINE+3]]:15, load -> compute): 4 x 65536 = 262144 bytes at offset 0; ring 1 (ws.load tensor<128x128xf32> at line [[@LINE+4]]:15, load -> compute): 4 x 65536 = 262144 bytes at offset 262144; ring 2 (arith.addf tensor<128x128xf32> at line [[@LINE+5]]:15, compute -> store): 4 x 65536 = 262144 bytes at offset 524288; barriers: 128 bytes
      // DEFAULT: plan-memory-budget.mlir:[[@LINE+1]]:7: error: 'scf.for' op shared memory plan needs 786560 bytes but the budget is 232448 bytes (the most sm_90a gives a block); lower ws.num_stages (4)
      scf.for %y = %c0 to %n step %c128 : i32 {
        %ta = "ws.load"(%a, %c0, %y) : (!ws.tensor_desc<tensor<128x128xf32>>, i32, i32) -> tensor<128x128xf32>
        %tb = "ws.load"(%b, %c0, %y) : (!ws.tensor_desc<tensor<128x128xf32>>, i32, i32) -> tensor<128x128xf32>
        %tc = arith.addf %ta, %tb : tensor<128x128xf32>
        "ws.store"(%c, %c0, %y, %tc) : (!ws.tensor_desc<tensor<128x128xf32>>, i32, i32, tensor<128x128xf32>) -> ()
      } {ws.warp_specialize, ws.num_stages = 4 : i32}
      gpu.return
    }
  }
}
