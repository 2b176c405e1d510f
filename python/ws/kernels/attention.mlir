// Flash-attention forward, the family torch.ops.ws.attention runs:
// O = softmax(Q K^T * scale) V for one block of 128 query rows of one
// (batch, query head) per thread block, online softmax, f32 accumulation.
//
// Fields (ws.Template): ${D}, the head dimension (64, 128 or 256); ${DTYPE},
// f16 or bf16; ${SOFTCAP}, 1 for the logit soft cap (cap * tanh(s / cap));
// ${CAUSAL}, 1 for a causal mask; ${BOUNDED}, 1 when each batch's keys have
// bounds of their own (padding) or the diagonal does not hide the keys past
// Skv. A line that begins with a condition field (ws.Template) is kept only
// when it holds, so that each member has just the masks it needs: every
// mask is a select, and even one the lowering skips per tile costs its
// tests (three in every member cost 7-20%, measured on the H200).
// ${PACKED}, 1 for a packed batch (causal, Sq = Skv, not BOUNDED): each row
// of a batch holds several sequences one after another, and query i sees
// key j only when j is in i's own sequence (see below).
// ${LSE}, 1 to store each query row's log-sum-exp as well (%lse, B x Hq x
// 1 x Sq f32 in the log2 domain of the scaled scores: m + log2(l), what a
// backward recomputes P from; a row that sees no key stores about -1e30),
// a row vector of the epilogue beside O. K/V blocks are ${BN} keys (128,
// or 64 at D = 256, where two 128-key tiles do
// not fit the registers).

// Q and O are B x Hq x Sq x D, K and V B x Hkv x Skv x D, of any strides
// (a B x S x H x D tensor's transposed view is one), read through
// 1 x 1 x rows x D boxes: TMA clips each head at its length, filling zeros,
// and clips O's store. Grid (ceil(Sq / 128), Hq, B).
//
// Which keys a query sees, runtime arguments of every member:
// - key j of batch b is seen when %starts[b] <= j < %ends[b], clamped to
//   0..Skv (the pads at the start or the end of each sequence; a member
//   that is not BOUNDED sees 0 <= j < Skv). An empty %starts means 0 (an
//   index past an array's length reads 0), an empty %ends Skv (memref.dim
//   tells);
// - and, when CAUSAL, query i sees key j when j <= i + %diag: %diag = 0 is
//   top-left, Skv - Sq bottom-right.
// - and, when PACKED, key j is seen by query i only when j >= the first
//   token of i's sequence: %starts holds it for every token (B x Sq int32,
//   dense: token i of batch b at b * Sq + i), and %seqf is the same as f32
//   rows (B x 1 x 1 x Sq, rows 16 bytes apart), which each KV step loads
//   for its block's rows (exact below 2^24 tokens; the diagonal keeps
//   the keys of the sequences after i's).
// Each condition is a select on ws.iota tiles, which the lowering tests
// once per tile, so only the blocks a condition cuts pay for it per
// element. The KV loop runs from the block holding the first key seen to
// the last one (the diagonal's when causal).

// A query row that sees no key stores zeros: the running max starts at
// -1e30, not -inf, so that exp2 of a fully masked row is 0 (never NaN),
// and the row sum is clamped away from 0 before the division (a row that
// sees a key has a sum of at least 1).
//
// %qlen = Sq, %kvlen = Skv, %group = Hq / Hkv (query head y reads K/V head
// y / %group), %scale = the softmax scale times log2(e); with the soft cap,
// the scores are cap * tanh(s * scale / cap): %scale = scale / cap (tanh's
// argument is s * %scale) and %cap = cap * log2(e). Either factor is
// positive, so the row max commutes with it and s * factor - max is one
// fused multiply-add, as FlashAttention-3 does.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention(%q: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %k: !ws.tensor_desc<tensor<1x1x${BN}x${D}x${DTYPE}>>, %v: !ws.tensor_desc<tensor<1x1x${BN}x${D}x${DTYPE}>>, %o: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>,
${?LSE}                        %lse: !ws.tensor_desc<tensor<1x1x1x128xf32>>,
${?PACKED}                        %seqf: !ws.tensor_desc<tensor<1x1x1x128xf32>>,
                        %qlen: i32, %kvlen: i32, %starts: memref<?xi32>, %ends: memref<?xi32>,
                        %diag: i32, %group: i32, %scale: f32, %cap: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant ${BN} : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %bzi = arith.index_cast %bz : index to i32
      %kvh = arith.divui %byi, %group : i32
${?CAUSAL}      // a causal member's blocks take a head's query blocks from its last
${?CAUSAL}      // (the longest: it sees the most keys) to its first, so that the
${?CAUSAL}      // short ones fill the grid's last wave; the blocks of a head still
${?CAUSAL}      // run together, sharing its K/V in L2
${?CAUSAL}      %cbm1 = arith.constant 127 : i32
${?CAUSAL}      %qpad = arith.addi %qlen, %cbm1 : i32
${?CAUSAL}      %nqb = arith.divui %qpad, %cbm : i32
${?CAUSAL}      %qlast = arith.subi %nqb, %bxi : i32
${?CAUSAL}      %c1 = arith.constant 1 : i32
${?CAUSAL}      %qb = arith.subi %qlast, %c1 : i32
      %qoff = arith.muli ${"%qb" if CAUSAL else "%bxi"}, %cbm : i32
      // the keys this batch's queries may see: lo <= j < hi, clamped to 0..Skv
      %i0 = arith.constant 0 : index
${?not PACKED}      %first_key = memref.load %starts[%bz] : memref<?xi32>
${?PACKED}      // a packed batch's: from the first key of the block's first row's
${?PACKED}      // sequence (no later row's sequence starts before it)
${?PACKED}      %bzq = arith.muli %bzi, %qlen : i32
${?PACKED}      %tok = arith.addi %bzq, %qoff : i32
${?PACKED}      %toki = arith.index_cast %tok : i32 to index
${?PACKED}      %first_key = memref.load %starts[%toki] : memref<?xi32>
      %last_key = memref.load %ends[%bz] : memref<?xi32>
      %nends = memref.dim %ends, %i0 : memref<?xi32>
      %ends_given = arith.cmpi ugt, %nends, %i0 : index
      %lo0 = arith.maxsi %first_key, %c0 : i32
      %lo = arith.minsi %lo0, %kvlen : i32
      %hi0 = arith.select %ends_given, %last_key, %kvlen : i32
      %hi1 = arith.minsi %hi0, %kvlen : i32
      %hi = arith.maxsi %hi1, %lo : i32
      // the loop: from lo's block to hi, or to the last diagonal key
      %first = arith.divui %lo, %cbn : i32
      %start = arith.muli %first, %cbn : i32
      %qend = arith.addi %qoff, %cbm : i32
      %dend = arith.addi %qend, %diag : i32
      %end0 = arith.minsi %dend, %hi : i32
      %end = arith.maxsi %end0, %start : i32
      %qdiag = arith.addi %qoff, %diag : i32
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
      %zs = arith.constant dense<0.0> : tensor<128x${BN}xf32>
      %zo = arith.constant dense<0.0> : tensor<128x${D}xf32>
      %m0 = arith.constant dense<-1.0e+30> : tensor<1x128xf32>
      %l0 = arith.constant dense<0.0> : tensor<1x128xf32>
      %r:3 = scf.for %kv = ${"%start" if BOUNDED or PACKED else "%c0"} to %end step %cbn iter_args(%acc = %zo, %m = %m0, %l = %l0)
          -> (tensor<128x${D}xf32>, tensor<1x128xf32>, tensor<1x128xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x${BN}x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<${BN}x${D}x${DTYPE}>
        %tv = "ws.load"(%v, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x${BN}x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<${BN}x${D}x${DTYPE}>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x${D}x${DTYPE}>, tensor<${BN}x${D}x${DTYPE}>, tensor<128x${BN}xf32>) -> tensor<128x${BN}xf32>
${?SOFTCAP}        %qs = tensor.splat %scale : tensor<128x${BN}xf32>
${?SOFTCAP}        %sx = arith.mulf %s, %qs : tensor<128x${BN}xf32>
${?SOFTCAP}        %th = math.tanh %sx fastmath<afn> : tensor<128x${BN}xf32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x${BN}xi32>
        %ninf = arith.constant dense<0xFF800000> : tensor<128x${BN}xf32>
        // keys before lo (only a bounded member's first block has them)
${?BOUNDED}        %before = arith.subi %lo, %kv : i32
${?BOUNDED}        %befores = tensor.splat %before : tensor<128x${BN}xi32>
${?BOUNDED}        %seen = arith.cmpi sge, %cols, %befores : tensor<128x${BN}xi32>
${?BOUNDED}        %sb = arith.select %seen, ${"%th" if SOFTCAP else "%s"}, %ninf : tensor<128x${BN}xi1>, tensor<128x${BN}xf32>
        // keys before each row's own sequence (a packed batch's): key
        // kv + col is seen when col >= the row's first key - kv
${?PACKED}        %rs = "ws.load"(%seqf, %bzi, %c0, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x128xf32>>, i32, i32, i32, i32) -> tensor<1x128xf32>
${?PACKED}        %kvf = arith.sitofp %kv : i32 to f32
${?PACKED}        %kvfs = tensor.splat %kvf : tensor<1x128xf32>
${?PACKED}        %rel = arith.subf %rs, %kvfs : tensor<1x128xf32>
${?PACKED}        %relb = "ws.broadcast"(%rel) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${BN}xf32>
${?PACKED}        %colsf = arith.sitofp %cols : tensor<128x${BN}xi32> to tensor<128x${BN}xf32>
${?PACKED}        %own = arith.cmpf oge, %colsf, %relb : tensor<128x${BN}xf32>
${?PACKED}        %sb = arith.select %own, ${"%th" if SOFTCAP else "%s"}, %ninf : tensor<128x${BN}xi1>, tensor<128x${BN}xf32>
        // keys at or past hi (the last block's; a causal member's diagonal
        // hides them unless it is bounded)
${?BOUNDED or not CAUSAL}        %left = arith.subi %hi, %kv : i32
${?BOUNDED or not CAUSAL}        %lefts = tensor.splat %left : tensor<128x${BN}xi32>
${?BOUNDED or not CAUSAL}        %inside = arith.cmpi slt, %cols, %lefts : tensor<128x${BN}xi32>
${?BOUNDED or not CAUSAL}        %sh = arith.select %inside, ${"%sb" if BOUNDED else ("%th" if SOFTCAP else "%s")}, %ninf : tensor<128x${BN}xi1>, tensor<128x${BN}xf32>
        // keys past the diagonal: kv + col > qoff + row + diag
${?CAUSAL}        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x${BN}xi32>
${?CAUSAL}        %kvrel = arith.subi %kv, %qdiag : i32
${?CAUSAL}        %kvs = tensor.splat %kvrel : tensor<128x${BN}xi32>
${?CAUSAL}        %kcol = arith.addi %cols, %kvs : tensor<128x${BN}xi32>
${?CAUSAL}        %above = arith.cmpi sgt, %kcol, %rows : tensor<128x${BN}xi32>
${?CAUSAL}        %sm = arith.select %above, %ninf, ${"%sh" if BOUNDED else ("%sb" if PACKED else ("%th" if SOFTCAP else "%s"))} : tensor<128x${BN}xi1>, tensor<128x${BN}xf32>
        %mx = "ws.reduce"(${"%sm" if CAUSAL else "%sh"}) {kind = "max", axis = 1 : i32} : (tensor<128x${BN}xf32>) -> tensor<1x128xf32>
        %scr = tensor.splat ${"%cap" if SOFTCAP else "%scale"} : tensor<1x128xf32>
        %mxs = arith.mulf %mx, %scr : tensor<1x128xf32>
        %mn = arith.maximumf %m, %mxs : tensor<1x128xf32>
        %mb = "ws.broadcast"(%mn) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${BN}xf32>
        %sc = tensor.splat ${"%cap" if SOFTCAP else "%scale"} : tensor<128x${BN}xf32>
        %ss = arith.mulf ${"%sm" if CAUSAL else "%sh"}, %sc fastmath<contract> : tensor<128x${BN}xf32>
        %sd = arith.subf %ss, %mb fastmath<contract> : tensor<128x${BN}xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<128x${BN}xf32>
        %ls = "ws.reduce"(%p) {kind = "sum", axis = 1 : i32} : (tensor<128x${BN}xf32>) -> tensor<1x128xf32>
        %dm = arith.subf %m, %mn : tensor<1x128xf32>
        %alpha = math.exp2 %dm fastmath<afn> : tensor<1x128xf32>
        %la = arith.mulf %l, %alpha : tensor<1x128xf32>
        %ln = arith.addf %la, %ls : tensor<1x128xf32>
        %ab = "ws.broadcast"(%alpha) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${D}xf32>
        %accs = arith.mulf %acc, %ab : tensor<128x${D}xf32>
        %pt = arith.truncf %p : tensor<128x${BN}xf32> to tensor<128x${BN}x${DTYPE}>
        %o2 = "ws.dot"(%pt, %tv, %accs) : (tensor<128x${BN}x${DTYPE}>, tensor<${BN}x${D}x${DTYPE}>, tensor<128x${D}xf32>) -> tensor<128x${D}xf32>
        scf.yield %o2, %mn, %ln : tensor<128x${D}xf32>, tensor<1x128xf32>, tensor<1x128xf32>
      } {ws.warp_specialize}
      %tiny = arith.constant dense<1.0e-30> : tensor<1x128xf32>
      %lsafe = arith.maximumf %r#2, %tiny : tensor<1x128xf32>
      %lb = "ws.broadcast"(%lsafe) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x${D}xf32>
      %out = arith.divf %r#0, %lb : tensor<128x${D}xf32>
      %ot = arith.truncf %out : tensor<128x${D}xf32> to tensor<128x${D}x${DTYPE}>
      "ws.store"(%o, %bzi, %byi, %qoff, %c0, %ot) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32, tensor<128x${D}x${DTYPE}>) -> ()
      // the row's log-sum-exp in the log2 domain, m + log2(l), for a backward
${?LSE}      %lg = math.log2 %lsafe : tensor<1x128xf32>
${?LSE}      %lsev = arith.addf %r#1, %lg : tensor<1x128xf32>
${?LSE}      "ws.store"(%lse, %bzi, %byi, %c0, %qoff, %lsev) : (!ws.tensor_desc<tensor<1x1x1x128xf32>>, i32, i32, i32, i32, tensor<1x128xf32>) -> ()
      gpu.return
    }
  }
}
