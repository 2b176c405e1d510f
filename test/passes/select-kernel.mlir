// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-select-kernel{kernel=add explain=true})' %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not ws-opt --split-input-file --pass-pipeline='builtin.module(ws-select-kernel{kernel=add})' %s 2>/dev/null | FileCheck %s --check-prefix=IR
// RUN: ws-opt --split-input-file --pass-pipeline='builtin.module(ws-select-kernel)' %s 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: ws-opt %S/Inputs/select-kernel-family.mlir --pass-pipeline='builtin.module(ws-pipeline{kernel=@add stage=plan})' | FileCheck %s --check-prefix=PLAN --implicit-check-not=@wide
// RUN: not ws-opt %S/Inputs/select-kernel-family.mlir --pass-pipeline='builtin.module(ws-pipeline{kernel=wide stage=plan})' 2>&1 | FileCheck %s --check-prefix=WIDE
// RUN: not ws-opt %S/Inputs/select-kernel-family.mlir --pass-pipeline='builtin.module(ws-pipeline{stage=plan})' 2>&1 | FileCheck %s --check-prefix=WIDE
// ws-select-kernel: kernel=NAME keeps @NAME and erases the module's other
// kernels (functions that are not kernels stay, unless their gpu.module is
// left with no kernel: it goes whole), so that an autotuner's
// member is planned, proved and lowered alone; a name the module lacks and
// a host launch of an erased kernel are located errors.

// CHECK: :[[@LINE+8]]:5: remark: kernel @scale erased: kernel=add compiles @add alone
// IR-LABEL: gpu.module @kernels
// IR-NOT: @scale
// IR: gpu.func @helper
// IR: gpu.func @add
// ALL: gpu.func @scale
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
    gpu.func @add(%x: f32) kernel {
      gpu.return
    }
  }
}

// -----

// CHECK: :[[@LINE+1]]:1: error: 'builtin.module' op has no kernel @add (its kernels: @scale, @mul)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
    gpu.func @mul(%x: f32) kernel {
      gpu.return
    }
  }
  gpu.module @more [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
  }
}

// -----

// CHECK: :[[@LINE+1]]:1: error: 'builtin.module' op has no kernel @add, only a function that is not a kernel (its kernels: @scale)
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
    gpu.func @add(%x: f32) -> f32 {
      gpu.return %x : f32
    }
  }
}

// -----

// Two gpu.modules with an @add each keep both; a gpu.module left with no
// kernel goes, its functions with it; a kernel's body is not searched (a
// module nested in @add, which the verifier takes, stays whole).
// CHECK: remark: kernel @scale erased
// CHECK: remark: kernel @mul erased
// CHECK: remark: kernel @scale erased
// IR-LABEL: gpu.module @first
// IR: gpu.func @add
// IR: gpu.module @inner
// IR: gpu.func @scale
// IR-NOT: gpu.module @other
// IR-NOT: @helper
// IR-LABEL: gpu.module @second
// IR-NEXT: gpu.func @add
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_90a">] {
    gpu.func @add(%x: f32) kernel {
      scf.execute_region {
        builtin.module {
          gpu.module @inner [#nvvm.target<chip = "sm_90a">] {
            gpu.func @scale(%y: f32) kernel {
              gpu.return
            }
          }
        }
        scf.yield
      }
      gpu.return
    }
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
  }
  gpu.module @other [#nvvm.target<chip = "sm_90a">] {
    gpu.func @helper(%x: f32) -> f32 {
      gpu.return %x : f32
    }
    gpu.func @mul(%x: f32) kernel {
      gpu.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
    gpu.func @add(%x: f32) kernel {
      gpu.return
    }
  }
}

// -----

// A host launch of the kernel that would go is refused; the one kept may
// be launched.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @scale(%x: f32) kernel {
      gpu.return
    }
    gpu.func @add(%x: f32) kernel {
      gpu.return
    }
  }
  func.func @host(%x: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@add blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    // CHECK: :[[@LINE+1]]:5: error: 'gpu.launch_func' op launches @scale, which kernel=add would erase; launch only @add, or compile without kernel=
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    return
  }
}

// The family: @add plans; @wide's tiles are over the shared-memory budget,
// which refuses the whole module unless kernel=add leaves @wide out.
// PLAN: gpu.func @add
// PLAN: ws.smem_bytes
// WIDE: error: {{.*}}shared memory
