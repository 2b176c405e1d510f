// A kernel with no ws.warp_specialize loop: nothing is specialized.
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90a">] {
    gpu.func @f(%n: i32) kernel {
      gpu.return
    }
  }
}
