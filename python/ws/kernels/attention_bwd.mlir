// Flash-attention backward, the family torch.ops.ws.attention's gradient
// runs: three kernels over the forward's Q, K, V, O, its row log-sum-exp
// (attention.mlir's LSE member) and the output's gradient dO.
//
// - @attention_delta: Delta = rowsum(dO * O) per query row (f32), what
//   dS = P * (dP - Delta) subtracts; a row kernel, 32 rows a step.
// - @attention_dkdv: one block per 128 keys of one (batch, K/V head),
//   looping over the query blocks (64 rows) of every query head of its
//   group: it recomputes P^T from K Q^T and the log-sum-exp, and holds
//   dV += P^T dO and dK += dS^T Q in registers (dS^T = P^T * (dP^T -
//   Delta), dP^T = V dO^T). Computing the transposed scores puts the keys
//   on the rows, so that P^T and dS^T feed wgmma from registers and the
//   group's heads sum in the block, in a fixed order.
// - @attention_dq: one block per ${BMQ} query rows of one (batch, query
//   head), looping over the key blocks (64 keys) the forward's did:
//   S = Q K^T, P, dP = dO V^T, dS, and dQ += dS K in registers.
// Every sum runs in a fixed order, so the same inputs give bit-identical
// gradients run to run.
//
// Fields (ws.Template): ${D} (64 or 128), ${DTYPE} (f16 or bf16),
// ${SOFTCAP}, ${CAUSAL}, ${BOUNDED}, ${PACKED} as attention.mlir's (the
// same masks, in the same runtime arguments: a PACKED member's %starts
// and %seqf are each token's first key), ${BMQ} the dQ kernel's query rows (128).
//
// Tensors as the forward's: Q, dO, dQ B x Hq x Sq x D; K, V, dK, dV
// B x Hkv x Skv x D, of any strides TMA can read; lse and Delta
// B x Hq x 1 x Sq f32 (rows 16 bytes apart: Sq rounded up to 4). A query
// row past Sq reads Q = dO = lse = Delta = 0, so it adds nothing (dS = P *
// (0 - 0)); a key row past Skv reads K = V = 0 and its dK and dV rows are
// not stored. %scale and %cap are the forward's (log2 domain, or tanh's
// and the cap's factors); %dscale is the softmax scale itself, dS's
// factor in dQ and dK (times 1 - tanh^2 with the soft cap), applied once
// in each epilogue.
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90a">] {
    gpu.func @attention_delta(%o: !ws.tensor_desc<tensor<1x1x32x${D}x${DTYPE}>>, %do: !ws.tensor_desc<tensor<1x1x32x${D}x${DTYPE}>>,
                              %delta: !ws.tensor_desc<tensor<1x1x1x32xf32>>, %qlen: i32) kernel
        attributes {ws.num_warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %cr = arith.constant 32 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %gx = gpu.grid_dim x
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %bzi = arith.index_cast %bz : index to i32
      %gxi = arith.index_cast %gx : index to i32
      %first = arith.muli %bxi, %cr : i32
      %step = arith.muli %gxi, %cr : i32
      scf.for %r0 = %first to %qlen step %step : i32 {
        %to = "ws.load"(%o, %bzi, %byi, %r0, %c0) : (!ws.tensor_desc<tensor<1x1x32x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<32x${D}x${DTYPE}>
        %tdo = "ws.load"(%do, %bzi, %byi, %r0, %c0) : (!ws.tensor_desc<tensor<1x1x32x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<32x${D}x${DTYPE}>
        %of = arith.extf %to : tensor<32x${D}x${DTYPE}> to tensor<32x${D}xf32>
        %dof = arith.extf %tdo : tensor<32x${D}x${DTYPE}> to tensor<32x${D}xf32>
        %prod = arith.mulf %of, %dof : tensor<32x${D}xf32>
        %rows = "ws.reduce"(%prod) {kind = "sum", axis = 1 : i32} : (tensor<32x${D}xf32>) -> tensor<1x32xf32>
        "ws.store"(%delta, %bzi, %byi, %c0, %r0, %rows) : (!ws.tensor_desc<tensor<1x1x1x32xf32>>, i32, i32, i32, i32, tensor<1x32xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }

    gpu.func @attention_dkdv(%q: !ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, %k: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %v: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>,
                             %do: !ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, %lse: !ws.tensor_desc<tensor<1x1x1x64xf32>>, %dlt: !ws.tensor_desc<tensor<1x1x1x64xf32>>,
                             %dk: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, %dv: !ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>,
${?PACKED}                             %seqf: !ws.tensor_desc<tensor<1x1x1x64xf32>>,
                             %qlen: i32, %kvlen: i32, %starts: memref<?xi32>, %ends: memref<?xi32>,
                             %diag: i32, %group: i32, %scale: f32, %cap: f32, %dscale: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %cbm = arith.constant 64 : i32
      %cbm1 = arith.constant 63 : i32
      %cbn = arith.constant 128 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %bxi = arith.index_cast %bx : index to i32
      %kvh = arith.index_cast %by : index to i32
      %bzi = arith.index_cast %bz : index to i32
      %koff = arith.muli %bxi, %cbn : i32
      %head0 = arith.muli %kvh, %group : i32
${?BOUNDED}      // the keys this batch's queries may see: lo <= j < hi, clamped to 0..Skv
${?BOUNDED}      %i0 = arith.constant 0 : index
${?BOUNDED}      %first_key = memref.load %starts[%bz] : memref<?xi32>
${?BOUNDED}      %last_key = memref.load %ends[%bz] : memref<?xi32>
${?BOUNDED}      %nends = memref.dim %ends, %i0 : memref<?xi32>
${?BOUNDED}      %ends_given = arith.cmpi ugt, %nends, %i0 : index
${?BOUNDED}      %lo0 = arith.maxsi %first_key, %c0 : i32
${?BOUNDED}      %lo = arith.minsi %lo0, %kvlen : i32
${?BOUNDED}      %hi0 = arith.select %ends_given, %last_key, %kvlen : i32
${?BOUNDED}      %hi1 = arith.minsi %hi0, %kvlen : i32
${?BOUNDED}      %hi = arith.maxsi %hi1, %lo : i32
${?BOUNDED}      %before = arith.subi %lo, %koff : i32
${?BOUNDED}      %left = arith.subi %hi, %koff : i32
      // each query head of the group, its query blocks from the first that
      // sees this block's first key (query i sees key j when j <= i + diag)
      %qpad = arith.addi %qlen, %cbm1 : i32
      %nqb = arith.divui %qpad, %cbm : i32
${?CAUSAL}      %qfirst0 = arith.subi %koff, %diag : i32
${?CAUSAL}      %qfirst = arith.maxsi %qfirst0, %c0 : i32
${?CAUSAL}      %qb0 = arith.divui %qfirst, %cbm : i32
${?CAUSAL}      %nq0 = arith.subi %nqb, %qb0 : i32
${?CAUSAL}      %nq = arith.maxsi %nq0, %c0 : i32
      %steps = arith.muli %group, ${"%nq" if CAUSAL else "%nqb"} : i32
${?CAUSAL}      %kdiag = arith.subi %diag, %koff : i32
      %tk = "ws.load"(%k, %bzi, %kvh, %koff, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
      %tv = "ws.load"(%v, %bzi, %kvh, %koff, %c0) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<128x${D}x${DTYPE}>
      %zs = arith.constant dense<0.0> : tensor<128x64xf32>
      %za = arith.constant dense<0.0> : tensor<128x${D}xf32>
      %r:2 = scf.for %it = %c0 to %steps step %c1 iter_args(%adk = %za, %adv = %za) -> (tensor<128x${D}xf32>, tensor<128x${D}xf32>) : i32 {
        %hq = arith.divui %it, ${"%nq" if CAUSAL else "%nqb"} : i32
        %qb = arith.remui %it, ${"%nq" if CAUSAL else "%nqb"} : i32
        %head = arith.addi %head0, %hq : i32
${?CAUSAL}        %qbs = arith.addi %qb, %qb0 : i32
        %qi = arith.muli ${"%qbs" if CAUSAL else "%qb"}, %cbm : i32
        %tq = "ws.load"(%q, %bzi, %head, %qi, %c0) : (!ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<64x${D}x${DTYPE}>
        %tdo = "ws.load"(%do, %bzi, %head, %qi, %c0) : (!ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<64x${D}x${DTYPE}>
        %tl = "ws.load"(%lse, %bzi, %head, %c0, %qi) : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32) -> tensor<1x64xf32>
        %td = "ws.load"(%dlt, %bzi, %head, %c0, %qi) : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32) -> tensor<1x64xf32>
        // the transposed scores: a key per row, a query per column
        %st = "ws.dot"(%tk, %tq, %zs) {transpose_b} : (tensor<128x${D}x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<128x64xf32>) -> tensor<128x64xf32>
${?SOFTCAP}        %qs = tensor.splat %scale : tensor<128x64xf32>
${?SOFTCAP}        %sx = arith.mulf %st, %qs : tensor<128x64xf32>
${?SOFTCAP}        %th = math.tanh %sx fastmath<afn> : tensor<128x64xf32>
        %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
${?BOUNDED or CAUSAL}        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x64xi32>
        // keys before a query's own sequence (a packed batch's): key
        // koff + row is seen by query column c when it is >= c's first key
${?PACKED}        %rs = "ws.load"(%seqf, %bzi, %c0, %c0, %qi) : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32) -> tensor<1x64xf32>
${?PACKED}        %rsb = "ws.broadcast"(%rs) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
${?PACKED}        %kf = arith.sitofp %koff : i32 to f32
${?PACKED}        %kfs = tensor.splat %kf : tensor<128x64xf32>
${?PACKED}        %rowsf = arith.sitofp %rows : tensor<128x64xi32> to tensor<128x64xf32>
${?PACKED}        %keyf = arith.addf %rowsf, %kfs : tensor<128x64xf32>
${?PACKED}        %own = arith.cmpf oge, %keyf, %rsb : tensor<128x64xf32>
${?PACKED}        %sb = arith.select %own, ${"%th" if SOFTCAP else "%st"}, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
        // keys outside this batch's bounds see no query
${?BOUNDED}        %befores = tensor.splat %before : tensor<128x64xi32>
${?BOUNDED}        %lefts = tensor.splat %left : tensor<128x64xi32>
${?BOUNDED}        %seen0 = arith.cmpi sge, %rows, %befores : tensor<128x64xi32>
${?BOUNDED}        %seen1 = arith.cmpi slt, %rows, %lefts : tensor<128x64xi32>
${?BOUNDED}        %sb0 = arith.select %seen0, ${"%th" if SOFTCAP else "%st"}, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
${?BOUNDED}        %sb = arith.select %seen1, %sb0, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
        // queries that do not see the key: koff + row > qi + col + diag
${?CAUSAL}        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x64xi32>
${?CAUSAL}        %krel = arith.addi %qi, %kdiag : i32
${?CAUSAL}        %krels = tensor.splat %krel : tensor<128x64xi32>
${?CAUSAL}        %kcol = arith.addi %cols, %krels : tensor<128x64xi32>
${?CAUSAL}        %above = arith.cmpi sgt, %rows, %kcol : tensor<128x64xi32>
${?CAUSAL}        %sm = arith.select %above, %ninf, ${"%sb" if BOUNDED or PACKED else ("%th" if SOFTCAP else "%st")} : tensor<128x64xi1>, tensor<128x64xf32>
        %sc = tensor.splat ${"%cap" if SOFTCAP else "%scale"} : tensor<128x64xf32>
        %ss = arith.mulf ${"%sm" if CAUSAL else ("%sb" if BOUNDED else ("%th" if SOFTCAP else "%st"))}, %sc fastmath<contract> : tensor<128x64xf32>
        %lb = "ws.broadcast"(%tl) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
        %sd = arith.subf %ss, %lb fastmath<contract> : tensor<128x64xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<128x64xf32>
        %dpt = "ws.dot"(%tv, %tdo, %zs) {transpose_b} : (tensor<128x${D}x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %db = "ws.broadcast"(%td) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
        %dd = arith.subf %dpt, %db : tensor<128x64xf32>
        %ds0 = arith.mulf %p, %dd : tensor<128x64xf32>
        // with the soft cap, d(cap tanh(s x / cap)) / ds = x (1 - tanh^2)
${?SOFTCAP}        %one = arith.constant dense<1.0> : tensor<128x64xf32>
${?SOFTCAP}        %th2 = arith.mulf %th, %th : tensor<128x64xf32>
${?SOFTCAP}        %dth = arith.subf %one, %th2 : tensor<128x64xf32>
${?SOFTCAP}        %ds = arith.mulf %ds0, %dth : tensor<128x64xf32>
        %pt = arith.truncf %p : tensor<128x64xf32> to tensor<128x64x${DTYPE}>
        %dst = arith.truncf ${"%ds" if SOFTCAP else "%ds0"} : tensor<128x64xf32> to tensor<128x64x${DTYPE}>
        %ndv = "ws.dot"(%pt, %tdo, %adv) : (tensor<128x64x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<128x${D}xf32>) -> tensor<128x${D}xf32>
        %ndk = "ws.dot"(%dst, %tq, %adk) : (tensor<128x64x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<128x${D}xf32>) -> tensor<128x${D}xf32>
        scf.yield %ndk, %ndv : tensor<128x${D}xf32>, tensor<128x${D}xf32>
      } {ws.warp_specialize}
      %dsc = tensor.splat %dscale : tensor<128x${D}xf32>
      %dkf = arith.mulf %r#0, %dsc : tensor<128x${D}xf32>
      %dkt = arith.truncf %dkf : tensor<128x${D}xf32> to tensor<128x${D}x${DTYPE}>
      %dvt = arith.truncf %r#1 : tensor<128x${D}xf32> to tensor<128x${D}x${DTYPE}>
      "ws.store"(%dk, %bzi, %kvh, %koff, %c0, %dkt) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32, tensor<128x${D}x${DTYPE}>) -> ()
      "ws.store"(%dv, %bzi, %kvh, %koff, %c0, %dvt) : (!ws.tensor_desc<tensor<1x1x128x${D}x${DTYPE}>>, i32, i32, i32, i32, tensor<128x${D}x${DTYPE}>) -> ()
      gpu.return
    }

    gpu.func @attention_dq(%q: !ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>, %k: !ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, %v: !ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>,
                           %do: !ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>, %lse: !ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>, %dlt: !ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>,
                           %dq: !ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>,
${?PACKED}                           %seqf: !ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>,
                           %qlen: i32, %kvlen: i32, %starts: memref<?xi32>, %ends: memref<?xi32>,
                           %diag: i32, %group: i32, %scale: f32, %cap: f32, %dscale: f32) kernel
        attributes {ws.num_warps = ${BMQ // 16} : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant ${BMQ} : i32
      %cbn = arith.constant 64 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %bzi = arith.index_cast %bz : index to i32
      %kvh = arith.divui %byi, %group : i32
${?CAUSAL}      // the query blocks from a head's last (the most keys) to its first,
${?CAUSAL}      // as the forward's
${?CAUSAL}      %cbm1 = arith.constant ${BMQ - 1} : i32
${?CAUSAL}      %qpad = arith.addi %qlen, %cbm1 : i32
${?CAUSAL}      %nqb = arith.divui %qpad, %cbm : i32
${?CAUSAL}      %qlast = arith.subi %nqb, %bxi : i32
${?CAUSAL}      %c1 = arith.constant 1 : i32
${?CAUSAL}      %qb = arith.subi %qlast, %c1 : i32
      %qoff = arith.muli ${"%qb" if CAUSAL else "%bxi"}, %cbm : i32
      // the keys this batch's queries see, as the forward's loop runs
      %i0 = arith.constant 0 : index
${?not PACKED}      %first_key = memref.load %starts[%bz] : memref<?xi32>
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
      %first = arith.divui %lo, %cbn : i32
      %start = arith.muli %first, %cbn : i32
      %qend = arith.addi %qoff, %cbm : i32
      %dend = arith.addi %qend, %diag : i32
      %end0 = arith.minsi %dend, %hi : i32
      %end = arith.maxsi %end0, %start : i32
      %qdiag = arith.addi %qoff, %diag : i32
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<${BMQ}x${D}x${DTYPE}>
      %tdo = "ws.load"(%do, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<${BMQ}x${D}x${DTYPE}>
      %zs = arith.constant dense<0.0> : tensor<${BMQ}x64xf32>
      %zq = arith.constant dense<0.0> : tensor<${BMQ}x${D}xf32>
      %r = scf.for %kv = ${"%start" if BOUNDED or PACKED else "%c0"} to %end step %cbn iter_args(%adq = %zq) -> (tensor<${BMQ}x${D}xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<64x${D}x${DTYPE}>
        %tv = "ws.load"(%v, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x64x${D}x${DTYPE}>>, i32, i32, i32, i32) -> tensor<64x${D}x${DTYPE}>
        // the rows' log-sum-exp and Delta, read again each step (a row vector
        // loaded before a matmul loop does not cross into it yet)
        %tl = "ws.load"(%lse, %bzi, %byi, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>, i32, i32, i32, i32) -> tensor<1x${BMQ}xf32>
        %td = "ws.load"(%dlt, %bzi, %byi, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>, i32, i32, i32, i32) -> tensor<1x${BMQ}xf32>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<${BMQ}x${D}x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<${BMQ}x64xf32>) -> tensor<${BMQ}x64xf32>
${?SOFTCAP}        %qs = tensor.splat %scale : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %sx = arith.mulf %s, %qs : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %th = math.tanh %sx fastmath<afn> : tensor<${BMQ}x64xf32>
        %ninf = arith.constant dense<0xFF800000> : tensor<${BMQ}x64xf32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<${BMQ}x64xi32>
${?BOUNDED}        %before = arith.subi %lo, %kv : i32
${?BOUNDED}        %befores = tensor.splat %before : tensor<${BMQ}x64xi32>
${?BOUNDED}        %seen = arith.cmpi sge, %cols, %befores : tensor<${BMQ}x64xi32>
${?BOUNDED}        %sb0 = arith.select %seen, ${"%th" if SOFTCAP else "%s"}, %ninf : tensor<${BMQ}x64xi1>, tensor<${BMQ}x64xf32>
        // keys at or past hi, as the forward's: zero-filled past Skv, their
        // P = 2^-lse would reach inf where lse is very negative, and inf
        // times K's zeros is NaN (a causal member's diagonal hides them
        // unless it is bounded)
${?BOUNDED or not CAUSAL}        %left = arith.subi %hi, %kv : i32
${?BOUNDED or not CAUSAL}        %lefts = tensor.splat %left : tensor<${BMQ}x64xi32>
${?BOUNDED or not CAUSAL}        %inside = arith.cmpi slt, %cols, %lefts : tensor<${BMQ}x64xi32>
${?BOUNDED or not CAUSAL}        %sb = arith.select %inside, ${"%sb0" if BOUNDED else ("%th" if SOFTCAP else "%s")}, %ninf : tensor<${BMQ}x64xi1>, tensor<${BMQ}x64xf32>
        // keys before each row's own sequence (a packed batch's), as the forward's
${?PACKED}        %rs = "ws.load"(%seqf, %bzi, %c0, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x${BMQ}xf32>>, i32, i32, i32, i32) -> tensor<1x${BMQ}xf32>
${?PACKED}        %kvf = arith.sitofp %kv : i32 to f32
${?PACKED}        %kvfs = tensor.splat %kvf : tensor<1x${BMQ}xf32>
${?PACKED}        %rel = arith.subf %rs, %kvfs : tensor<1x${BMQ}xf32>
${?PACKED}        %relb = "ws.broadcast"(%rel) {axis = 0 : i32} : (tensor<1x${BMQ}xf32>) -> tensor<${BMQ}x64xf32>
${?PACKED}        %colsf = arith.sitofp %cols : tensor<${BMQ}x64xi32> to tensor<${BMQ}x64xf32>
${?PACKED}        %own = arith.cmpf oge, %colsf, %relb : tensor<${BMQ}x64xf32>
${?PACKED}        %sb = arith.select %own, ${"%th" if SOFTCAP else "%s"}, %ninf : tensor<${BMQ}x64xi1>, tensor<${BMQ}x64xf32>
${?CAUSAL}        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<${BMQ}x64xi32>
${?CAUSAL}        %kvrel = arith.subi %kv, %qdiag : i32
${?CAUSAL}        %kvs = tensor.splat %kvrel : tensor<${BMQ}x64xi32>
${?CAUSAL}        %kcol = arith.addi %cols, %kvs : tensor<${BMQ}x64xi32>
${?CAUSAL}        %above = arith.cmpi sgt, %kcol, %rows : tensor<${BMQ}x64xi32>
${?CAUSAL}        %sm = arith.select %above, %ninf, ${"%sb" if BOUNDED or PACKED else ("%th" if SOFTCAP else "%s")} : tensor<${BMQ}x64xi1>, tensor<${BMQ}x64xf32>
        %sc = tensor.splat ${"%cap" if SOFTCAP else "%scale"} : tensor<${BMQ}x64xf32>
        %ss = arith.mulf ${"%sm" if CAUSAL else "%sb"}, %sc fastmath<contract> : tensor<${BMQ}x64xf32>
        %lb = "ws.broadcast"(%tl) {axis = 0 : i32} : (tensor<1x${BMQ}xf32>) -> tensor<${BMQ}x64xf32>
        %sd = arith.subf %ss, %lb fastmath<contract> : tensor<${BMQ}x64xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<${BMQ}x64xf32>
        %dp = "ws.dot"(%tdo, %tv, %zs) {transpose_b} : (tensor<${BMQ}x${D}x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<${BMQ}x64xf32>) -> tensor<${BMQ}x64xf32>
        %db = "ws.broadcast"(%td) {axis = 0 : i32} : (tensor<1x${BMQ}xf32>) -> tensor<${BMQ}x64xf32>
        %dd = arith.subf %dp, %db : tensor<${BMQ}x64xf32>
        %ds0 = arith.mulf %p, %dd : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %one = arith.constant dense<1.0> : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %th2 = arith.mulf %th, %th : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %dth = arith.subf %one, %th2 : tensor<${BMQ}x64xf32>
${?SOFTCAP}        %ds = arith.mulf %ds0, %dth : tensor<${BMQ}x64xf32>
        %dst = arith.truncf ${"%ds" if SOFTCAP else "%ds0"} : tensor<${BMQ}x64xf32> to tensor<${BMQ}x64x${DTYPE}>
        %ndq = "ws.dot"(%dst, %tk, %adq) : (tensor<${BMQ}x64x${DTYPE}>, tensor<64x${D}x${DTYPE}>, tensor<${BMQ}x${D}xf32>) -> tensor<${BMQ}x${D}xf32>
        scf.yield %ndq : tensor<${BMQ}x${D}xf32>
      } {ws.warp_specialize}
      %dsc = tensor.splat %dscale : tensor<${BMQ}x${D}xf32>
      %dqf = arith.mulf %r, %dsc : tensor<${BMQ}x${D}xf32>
      %dqt = arith.truncf %dqf : tensor<${BMQ}x${D}xf32> to tensor<${BMQ}x${D}x${DTYPE}>
      "ws.store"(%dq, %bzi, %byi, %qoff, %c0, %dqt) : (!ws.tensor_desc<tensor<1x1x${BMQ}x${D}x${DTYPE}>>, i32, i32, i32, i32, tensor<${BMQ}x${D}x${DTYPE}>) -> ()
      gpu.return
    }
  }
}
