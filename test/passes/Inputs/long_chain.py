#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Prints an elementwise kernel whose warp-specialized loop applies N
dependent ops (add, mul, sub by a splat, in turn) to a loaded 32x64 f32
tile and stores the result: a long chain with at most three tiles live.

Usage: long_chain.py N"""
import sys


def main():
    n = int(sys.argv[1])
    t = "tensor<32x64xf32>"
    d = f"!ws.tensor_desc<{t}>"
    print("module attributes {gpu.container_module} {")
    print('  gpu.module @k [#nvvm.target<chip = "sm_90a">] {')
    print(f"    gpu.func @chain(%in: {d}, %out: {d}, %n: i32) kernel {{")
    print("      %c0 = arith.constant 0 : i32")
    print("      %c32 = arith.constant 32 : i32")
    print(f"      %k = arith.constant dense<1.5> : {t}")
    print("      scf.for %i = %c0 to %n step %c32 : i32 {")
    print(f'        %t0 = "ws.load"(%in, %i, %c0) : ({d}, i32, i32) -> {t}')
    for k in range(1, n + 1):
        op = ("arith.subf", "arith.addf", "arith.mulf")[k % 3]
        print(f"        %t{k} = {op} %t{k - 1}, %k : {t}")
    print(f'        "ws.store"(%out, %i, %c0, %t{n}) : ({d}, i32, i32, {t}) -> ()')
    print("      } {ws.warp_specialize}")
    print("      gpu.return")
    print("    }")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
