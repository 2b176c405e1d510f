// RUN: ws-opt --ws-pipeline=stage=plan %S/Inputs/f8-kernel.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// RUN: ws-opt %S/Inputs/f8-kernel.mlir --emit=ptx | FileCheck %s --check-prefix=PTX
// f8 tiles live in registers as f32: slots are read as bytes and widened
// pair by pair with the hardware cvt; every op with an f8 result is rounded
// to its format (rn, satfinite) and widened again; the stored tile is
// narrowed to bytes. 64-element tiles over 256 threads: only threads 0-15
// hold a chunk, the others read slot chunk 0 and write nothing.

// CHECK: %[[VALID:.*]] = arith.cmpi ult, %{{.*}}, %c16_i32 : i32
// CHECK: nvvm.setmaxregister  increase
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: %[[OFF:.*]] = arith.select %[[VALID]], %{{.*}}, %c0_i32 : i32
// CHECK: %[[A:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<4xi8>
// CHECK: llvm.shufflevector %[[A]], %[[A]] [0, 1] : vector<4xi8>
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: arith.extf %{{.*}} : vector<2xf16> to vector<2xf32>
// CHECK: llvm.shufflevector %[[A]], %[[A]] [2, 3] : vector<4xi8>
// CHECK: %[[WA:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xf32>
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// extf e5m2 -> f16 is exact, then truncf f16 -> e4m3 rounds through f32:
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: arith.extf %{{.*}} : vector<4xf16> to vector<4xf32>
// CHECK: nvvm.convert.f32x2.to.f8x2 %{{.*}}, %{{.*}} {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// The f8 splat 1.5 is an f32 splat; the product is rounded to e4m3.
// CHECK: %[[P:.*]] = arith.mulf %[[WA]], %{{.*}} : vector<4xf32>
// CHECK: llvm.extractelement %[[P]][%c1_i32 : i32]
// CHECK: llvm.extractelement %[[P]][%c0_i32 : i32]
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}}(f8E4M3FN)
// CHECK: arith.addf %{{.*}} : vector<4xf32>
// CHECK: arith.cmpf ogt, %{{.*}}, %[[WA]] : vector<4xf32>
// CHECK: arith.select %{{.*}} : vector<4xi1>, vector<4xf32>
// The store of the last (here only) chunk is skipped past the tile.
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: scf.if %[[VALID]] {
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK: nvvm.convert.f32x2.to.f8x2
// CHECK: %[[BYTES:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xi8>
// CHECK: llvm.store %[[BYTES]], %{{.*}} {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.fence.proxy

// PTX: cvt.rn.f16x2.e4m3x2
// PTX: cvt.rn.f16x2.e5m2x2
// PTX: cvt.rn.satfinite.e4m3x2.f32
// PTX: cp.async.bulk.tensor.2d.global.shared::cta
