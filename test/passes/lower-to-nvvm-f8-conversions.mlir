// RUN: ws-opt --ws-pipeline=stage=plan %S/Inputs/f8-conversions.mlir | ws-opt --pass-pipeline='builtin.module(ws-lower-to-nvvm, canonicalize, cse)' | FileCheck %s
// Each f8 conversion in the compute partition (f8 tiles are f32 there):
// extf to f32 is the widened value itself, extf to bf16/f16 a truncf of it
// (exact); truncf from bf16 widens first; truncf to f8 is the satfinite cvt
// and back.

// Slot reads: e4m3 and e5m2 bytes widened pair by pair.
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: %[[WA:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xf32>
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.*}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: %[[WB:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xf32>
// extf e5m2 -> bf16, then truncf bf16 -> e5m2 (through f32):
// CHECK: %[[B16:.*]] = arith.truncf %[[WB]] : vector<4xf32> to vector<4xbf16>
// CHECK: arith.extf %[[B16]] : vector<4xbf16> to vector<4xf32>
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}}sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E5M2)
// CHECK: %[[NB:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xf32>
// extf e4m3 -> f32 is the value itself; truncf f32 -> e4m3 rounds it:
// CHECK: llvm.extractelement %[[WA]][%c1_i32 : i32]
// CHECK: nvvm.convert.f32x2.to.f8x2 {{.*}}sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[NA:.*]] = llvm.shufflevector %{{.*}}, %{{.*}} [0, 1, 2, 3] : vector<2xf32>
// extf e4m3/e5m2 -> f16, then the f16 add:
// CHECK: %[[X:.*]] = arith.truncf %[[NA]] : vector<4xf32> to vector<4xf16>
// CHECK: %[[Z:.*]] = arith.truncf %[[NB]] : vector<4xf32> to vector<4xf16>
// CHECK: arith.addf %[[X]], %[[Z]] : vector<4xf16>
