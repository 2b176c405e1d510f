// The ws dialect: tile-level operations for warp-specialized GPU kernels.
//
// IRDL checks the shape of each op (operand and result kinds); everything IRDL
// cannot say (coordinate count equals descriptor rank, a tile matches its
// descriptor's box, dot shapes) is checked by the ws-verify pass
// (passes/verify.c). One constraint value used for two operands forces them
// to have the same type, so each independent operand gets its own value.
irdl.dialect @ws {
  // A TMA descriptor of a global tensor; the parameter is the box (the tile
  // one TMA copy moves), e.g. !ws.tensor_desc<tensor<32x64xf32>>.
  irdl.type @tensor_desc {
    %box = irdl.base "!builtin.tensor"
    irdl.parameters(box: %box)
  }

  // %tile = ws.load %desc[%i0, ..., %iR]: the box at element coordinates
  // i0.. (outermost first); out-of-bounds elements read as zero.
  irdl.operation @load {
    %desc = irdl.base @ws::@tensor_desc
    %coord = irdl.is i32
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(desc: %desc, coords: variadic %coord)
    irdl.results(tile: %tile)
  }

  // ws.store %desc[%i0, ..., %iR], %tile: writes the box; out-of-bounds
  // elements are dropped.
  irdl.operation @store {
    %desc = irdl.base @ws::@tensor_desc
    %coord = irdl.is i32
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(desc: %desc, coords: variadic %coord, value: %tile)
    irdl.results()
  }

  // %d = ws.dot %a, %b, %acc: acc + a @ b (a @ b^T with the unit attribute
  // transpose_b). The accumulator and the result share one constraint value,
  // so they always have the same type.
  irdl.operation @dot {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %acc = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, acc: %acc)
    irdl.results(result: %acc)
  }
}
