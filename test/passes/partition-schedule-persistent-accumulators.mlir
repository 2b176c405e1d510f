// RUN: ws-opt --pass-pipeline='builtin.module(ws-verify, ws-partition-schedule{explain=true})' %ws_src/integration/epilogue/swiglu_persistent.mlir 2>&1 | FileCheck %s
// RUN: ws-opt %ws_src/integration/epilogue/swiglu_persistent.mlir --emit=ptx -o %t.ptx
// RUN: grep -c 'wgmma.mma_async' %t.ptx | FileCheck %s --check-prefix=PTX
// RUN: sed -e 's/} {ws.warp_specialize}/} {ws.overlap = "pingpong", ws.warp_specialize}/' %ws_src/integration/epilogue/swiglu_persistent.mlir > %t.pingpong.mlir
// RUN: not ws-opt %t.pingpong.mlir --emit=plan 2>&1 | FileCheck %s --check-prefix=PINGPONG
// PINGPONG: error: 'scf.for' op asks for ws.overlap = "pingpong", {{.*}}; here 2 tile(s) of N = 128 (the K loop's accumulators and fresh products), 256 f32 per thread where 128 fit
// A persistent tile loop whose K loop carries two accumulators (a SwiGLU's
// gate and up projections, sharing A) was refused ('holds one scf.for, a
// K loop carrying a ws.dot accumulator (it holds 1 loop(s) and carries 0
// value(s))'). It is planned as any persistent matmul: the mark moves to
// the K loop, and ping-pong is not chosen, since one warpgroup would hold
// both 128x128 accumulators (256 f32 a thread).
// CHECK: remark: persistent, cooperative
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (tensor<128x128xf32>, tensor<128x128xf32>)
// CHECK: "ws.dot"{{.*}}ws.partition = ["compute"]
// CHECK: "ws.dot"{{.*}}ws.partition = ["compute"]
// CHECK: } {ws.partitions = [{name = "load", {{.*}}ws.warp_specialize
// CHECK: } {ws.overlap = "cooperative", ws.tile_loop}
// Two wgmma chains of 128x128x64 per K step, each 4 instructions of K 16,
// in each of the two consumer warpgroups' copies: at least 8 in the PTX.
// PTX: {{^([89]|[1-9][0-9]+)$}}
