// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
// The ws dialect: tile-level operations for warp-specialized GPU kernels.
//
// IRDL checks the shape of each op (operand and result kinds); everything IRDL
// cannot say (coordinate count equals descriptor rank, a tile matches its
// descriptor's box, dot shapes) is checked by the ws-verify pass
// (passes/transforms/verify.c). One constraint value used for two operands forces them
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
  // transpose_b; a^T @ b with transpose_a, a given K x M). The accumulator and the result share one constraint value,
  // so they always have the same type.
  // %d = ws.dot %a, %b, %acc, %scales...: block-scaled (MX): each 32
  // values of K of a row of a (and of a row of b, given N x K) are
  // multiplied by 2^(e - 127) for their 8-bit exponent e (ue8m0) first.
  // The exponents come in MX atoms, one tensor<32x16xi8> per 128 rows and
  // 128 of K (byte 4 q + j of row r: row 32 q + r, K block j): a's atoms,
  // then b's; ws-verify checks the count and shapes. On a chip whose MMA
  // engine has block-scaled forms.
  irdl.operation @dot {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %acc = irdl.base "!builtin.tensor"
    %scales = irdl.base "!builtin.tensor"
    irdl.operands(a: %a, b: %b, acc: %acc, scales: variadic %scales)
    irdl.results(result: %acc)
  }

  // %t = ws.broadcast %v {axis = A}: a 1 x K tile repeated into an M x N
  // tile; its K values run along result dimension A: axis 1 (K = N) gives
  // every row the same values (a bias per column, broadcast over M), axis 0
  // (K = M) every column (a bias per row, broadcast over N). One element
  // type; ws-verify checks the shapes. A matmul epilogue uses it on a
  // ws.load of a bias vector.
  irdl.operation @broadcast {
    %v = irdl.base "!builtin.tensor"
    %t = irdl.base "!builtin.tensor"
    irdl.operands(value: %v)
    irdl.results(result: %t)
  }

  // %r = ws.reduce %t {kind = "max" | "min" | "sum", axis = A}: an M x N
  // tile reduced along dimension A into a 1 x K tile, K the other
  // dimension's extent: axis 1 gives each row's max or sum (1 x M), axis 0
  // each column's (1 x N), in the tile's element type. ws.broadcast with
  // the other axis spreads it back (a row statistic over the columns: axis
  // 0). ws-verify checks the shapes and the kind.
  irdl.operation @reduce {
    %t = irdl.base "!builtin.tensor"
    %r = irdl.base "!builtin.tensor"
    irdl.operands(value: %t)
    irdl.results(result: %r)
  }

  // %t = ws.iota {axis = A}: an M x N tile of i32 whose every element is
  // its index along dimension A (its row for axis 0, its column for axis
  // 1); with arith on splats of a tile's offsets, the row and column
  // indices a mask compares.
  // %m, %n = ws.tile_coords %t, %M, %N {tile = array<i32: BM, BN>}: the
  // first row and column of tile %t of an M x N output in BM x BN tiles, in
  // the order ws-tile-order picks (or `order` = "grouped" with `group`
  // rows of tiles, or "row", forces).
  irdl.operation @tile_coords {
    %t = irdl.is i32
    %mm = irdl.is i32
    %nn = irdl.is i32
    %m = irdl.is i32
    %n = irdl.is i32
    irdl.operands(tile: %t, rows: %mm, columns: %nn)
    irdl.results(m: %m, n: %n)
  }

  irdl.operation @iota {
    %t = irdl.base "!builtin.tensor"
    irdl.operands()
    irdl.results(result: %t)
  }

  // ---- The protocol, as ws-insert-barriers leaves it ----------------------
  // Each partition is a branch of the kernel with its own copy of the loop.
  // Barriers and ring slots are named by index into the kernel's
  // ws.channels and ws.rings tables (discardable i32 attributes `channel`
  // and `ring`, and `barrier` = "full" or "empty"); ws-lower-to-nvvm turns
  // each op into nvvm/llvm ops at its place.

  // ws.init_barrier {channel, barrier, count}: initializes every slot's
  // barrier of that kind with `count` arrivals per phase (one thread runs it).
  irdl.operation @init_barrier {
    irdl.operands()
    irdl.results()
  }

  // %slot, %phase = ws.slot_phase %n {depth, start_phase}: the ring slot
  // (n mod depth) and the barrier phase ((n / depth) & 1, flipped when
  // start_phase is 1) of the n-th use of a channel.
  irdl.operation @slot_phase {
    %i = irdl.is i32
    irdl.operands(iteration: %i)
    irdl.results(slot: %i, phase: %i)
  }

  // ws.wait %slot, %phase {channel, barrier}: blocks until that barrier of
  // the slot has completed the phase.
  irdl.operation @wait {
    %i = irdl.is i32
    irdl.operands(slot: %i, phase: %i)
    irdl.results()
  }

  // ws.arrive %slot {channel, barrier}: one arrival of the calling thread.
  // With the unit attribute `cluster` (a cluster kernel's release of a
  // slot that every CTA writes into): one arrival of each warp, on the
  // barrier at the same offset in every CTA of the cluster.
  irdl.operation @arrive {
    %i = irdl.is i32
    irdl.operands(slot: %i)
    irdl.results()
  }

  // ws.arrive_expect_tx %slot {channel, bytes}: one arrival on the full
  // barrier that also expects `bytes` of TMA transactions in this phase.
  irdl.operation @arrive_expect_tx {
    %i = irdl.is i32
    irdl.operands(slot: %i)
    irdl.results()
  }

  // ws.tma_load %desc[coords], %slot {ring}: a TMA copy of the box into the
  // ring's slot, completing on its channel's full barrier of that slot.
  irdl.operation @tma_load {
    %desc = irdl.base @ws::@tensor_desc
    %coord = irdl.is i32
    %slot = irdl.is i32
    irdl.operands(desc: %desc, coords: variadic %coord, slot: %slot)
    irdl.results()
  }

  // ws.tma_store %desc[coords], %slot {ring}: writes the ring slot's tile
  // to the box (exactly: nothing outside the tensor), as one bulk group
  // member of the calling thread.
  irdl.operation @tma_store {
    %desc = irdl.base @ws::@tensor_desc
    %coord = irdl.is i32
    %slot = irdl.is i32
    irdl.operands(desc: %desc, coords: variadic %coord, slot: %slot)
    irdl.results()
  }

  // %tile = ws.read_slot %slot {ring}: the partition's threads read the
  // slot's tile into registers.
  irdl.operation @read_slot {
    %slot = irdl.is i32
    %tile = irdl.base "!builtin.tensor"
    irdl.operands(slot: %slot)
    irdl.results(tile: %tile)
  }

  // ws.write_slot %tile, %slot {ring}: the partition's threads write the
  // tile from registers into the slot.
  irdl.operation @write_slot {
    %tile = irdl.base "!builtin.tensor"
    %slot = irdl.is i32
    irdl.operands(tile: %tile, slot: %slot)
    irdl.results()
  }

  // %acc2 = ws.mma %slot, %acc[, %a] {ring_a?, ring_b, transpose_a?,
  // transpose_b?}: the calling warpgroups' wgmma of A (M x K, or K x M read
  // M-major with transpose_a) by ring_b's slot (B, N x K with
  // transpose_b, else K x N) into the accumulator: acc + A @ B^T, or
  // acc + A @ B. A is ring_a's slot %slot (no third operand), ring_a's
  // slot %a (an i32: a ring of another channel, such as a tile loaded once
  // before the loop), or the tile %a in registers (no ring_a: wgmma's
  // register form). Asynchronous: it completes at a later
  // nvvm.wgmma.wait.group; the result type is the accumulator's.
  irdl.operation @mma {
    %slot = irdl.is i32
    %acc = irdl.base "!builtin.tensor"
    %a_slot = irdl.is i32
    %a_tile = irdl.base "!builtin.tensor"
    %a = irdl.any_of(%a_slot, %a_tile)
    irdl.operands(slot: %slot, acc: %acc, a: optional %a)
    irdl.results(result: %acc)
  }

  // %ready = ws.mma_done %pending: the tile %pending, which ws.mma ops
  // write asynchronously, is complete here: an nvvm.wgmma.wait.group before
  // it retired them. Math that reads the tile reads %ready, so it stays
  // after the wait (the lowering passes each register through it). Written
  // where a lagged K loop (ws.partitions' lag) reads a product a step after
  // its wgmmas.
  irdl.operation @mma_done {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(pending: %t)
    irdl.results(ready: %t)
  }

  // %sum = ws.split_k_sum %acc, %workspace, %unit, %splits: split-K's
  // exchange of partial sums (ws-split-k writes it after a split tile
  // loop's K loop). Unit %unit is split %unit % %splits of tile %unit /
  // %splits. The tile's last split waits for the others' partial sums in
  // the workspace (the i64 address of global memory) and returns %acc plus
  // them, added in split order; the others publish %acc there and return
  // it. With one split it is %acc.
  irdl.operation @split_k_sum {
    %t = irdl.base "!builtin.tensor"
    %w = irdl.is i64
    %i = irdl.is i32
    irdl.operands(acc: %t, workspace: %w, unit: %i, splits: %i)
    irdl.results(sum: %t)
  }

  // %tile, %k_begin, %k_end, %k_start = ws.stream_k_unit %unit, %dp_tiles,
  // %tiles, %k_steps, %grid: stream-K's work (ws-split-k writes it first
  // in a tile loop marked ws.split_k = "stream", which runs %unit from the
  // block's id in steps of %grid). Units below %dp_tiles are whole tiles,
  // run round-robin (%tile = %unit, K steps 0 to %k_steps). The tiles after
  // them are shared out by K step: block b runs the b-th of %grid equal
  // runs of their K steps, as three more units (j = 0, 1, 2), each the part
  // of one tile its run covers, last tile first: K steps %k_begin to %k_end
  // of %tile, from %k_start on (wrapping to %k_begin), so that every block
  // reads the same K steps at the same time. A unit the run does not reach
  // is empty: all three are 0. All i32. The protocol proof takes the trip
  // count %k_end - %k_begin from the run it checks, not from this
  // arithmetic (check_protocol.c).
  irdl.operation @stream_k_unit {
    %i = irdl.is i32
    irdl.operands(unit: %i, dp_tiles: %i, tiles: %i, k_steps: %i, grid: %i)
    irdl.results(tile: %i, k_begin: %i, k_end: %i, k_start: %i)
  }

  // %sum = ws.stream_k_sum %acc, %workspace, %k_begin, %k_end, %k_steps:
  // stream-K's exchange of partial sums, after the K loop of a unit of
  // ws.stream_k_unit. A unit that starts its tile and stops inside it
  // (%k_begin = 0 < %k_end < %k_steps: its block's first shared unit)
  // publishes %acc in its block's slot of the workspace; a unit that starts
  // inside its tile and ends it (0 < %k_begin < %k_end = %k_steps: its
  // block's last), the tile's owner, waits for the previous block's slot
  // and returns %acc plus it. Every other unit returns %acc.
  irdl.operation @stream_k_sum {
    %t = irdl.base "!builtin.tensor"
    %w = irdl.is i64
    %i = irdl.is i32
    irdl.operands(acc: %t, workspace: %w, k_begin: %i, k_end: %i, k_steps: %i)
    irdl.results(sum: %t)
  }

  // ---- sm_100a: tensor memory and tcgen05 (the plan's ws.tmem) ----------

  // ws.tmem_alloc: the whole calling warp allocates the kernel's tensor
  // memory (ws.tmem's `allocated` columns) and writes its address into the
  // shared-memory word at ws.tmem's `address`.
  irdl.operation @tmem_alloc {
    irdl.operands()
    irdl.results()
  }

  // ws.tmem_dealloc: the warp that allocated frees it, once nothing reads
  // or writes it any more.
  irdl.operation @tmem_dealloc {
    irdl.operands()
    irdl.results()
  }

  // ws.tc_mma %slot, %buffer, %accumulate {ring_a, ring_b, transpose_b}:
  // one thread issues tcgen05.mma of A (ring_a's slot, M x K) by B
  // (ring_b's slot, N x K with the unit attribute transpose_b, else K x N)
  // into accumulator buffer %buffer of ws.tmem: D = A @ B (B^T), plus D
  // when %accumulate. Asynchronous: it reads the slots and writes the
  // buffer until the completion a later ws.commit tracks.
  irdl.operation @tc_mma {
    %i = irdl.is i32
    %b = irdl.is i1
    irdl.operands(slot: %i, buffer: %i, accumulate: %b)
    irdl.results()
  }

  // ws.tmem_copy %slot {ring}: one thread copies the block scales in ring
  // `ring`'s slot %slot into their columns of tensor memory (ws.tmem's
  // scale_columns; tcgen05.cp), for the block-scaled ws.tc_mma issued
  // after it, which the tensor cores run in issue order. Asynchronous: it
  // reads the slot until the completion a later ws.commit tracks.
  irdl.operation @tmem_copy {
    %i = irdl.is i32
    irdl.operands(slot: %i)
    irdl.results()
  }

  // ws.commit %slot {channel, barrier}: tcgen05.commit: one arrival on the
  // barrier of the slot once every tcgen05.mma the thread issued before
  // has completed.
  irdl.operation @commit {
    %i = irdl.is i32
    irdl.operands(slot: %i)
    irdl.results()
  }

  // %acc = ws.tmem_load %buffer, %filled: the partition's warps read
  // accumulator buffer %buffer of ws.tmem into registers (tcgen05.ld, then
  // tcgen05.wait::ld): warp w of each warpgroup its lanes 32(w % 4) and up,
  // each warpgroup its share of the columns. Where %filled is false (the
  // K loop ran no step, so no MMA wrote the buffer) the tile is 0.0.
  irdl.operation @tmem_load {
    %i = irdl.is i32
    %b = irdl.is i1
    %acc = irdl.base "!builtin.tensor"
    irdl.operands(buffer: %i, filled: %b)
    irdl.results(acc: %acc)
  }
}
