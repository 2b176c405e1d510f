// Tiles of 2^28 bytes at 8 stages: slot bytes saturate, and the over-budget
// message multiplies depth by slot bytes without overflowing (found by the
// pipeline fuzz under UndefinedBehaviorSanitizer). See plan-memory-budget.mlir.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @huge(%a: !ws.tensor_desc<tensor<256x256x256x16xf8E4M3FN>>, %c: !ws.tensor_desc<tensor<256x256x256x16xf8E4M3FN>>, %n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c16 = arith.constant 16 : i32
      // HUGE: plan-memory-huge.mlir:[[@LINE+1]]:7: error: 'scf.for' op shared memory plan needs 2147483647 bytes but the budget is 232448 bytes (the most sm_90a gives a block); lower ws.num_stages (8) or load smaller tiles: ring 0 (ws.load tensor<256x256x256x16xf8E4M3FN> at line {{.*}}, load -> compute): 8 x 268435456 = 2147483648 bytes
      scf.for %y = %c0 to %n step %c16 : i32 {
        %t = "ws.load"(%a, %c0, %c0, %c0, %y) : (!ws.tensor_desc<tensor<256x256x256x16xf8E4M3FN>>, i32, i32, i32, i32) -> tensor<256x256x256x16xf8E4M3FN>
        %r = arith.addf %t, %t : tensor<256x256x256x16xf8E4M3FN>
        "ws.store"(%c, %c0, %c0, %c0, %y, %r) : (!ws.tensor_desc<tensor<256x256x256x16xf8E4M3FN>>, i32, i32, i32, i32, tensor<256x256x256x16xf8E4M3FN>) -> ()
      } {ws.warp_specialize, ws.num_stages = 8 : i32}
      gpu.return
    }
  }
}
