// attention_bwd.mlir rendered for D = 64, bf16, causal (python/ws/kernels).
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
// - @attention_dq: one block per 128 query rows of one (batch, query
//   head), looping over the key blocks (64 keys) the forward's did:
//   S = Q K^T, P, dP = dO V^T, dS, and dQ += dS K in registers.
// Every sum runs in a fixed order, so the same inputs give bit-identical
// gradients run to run.
//
// Fields (ws.Template): 64 (64 or 128), bf16 (f16 or bf16),
// 0, 1, 0 as attention.mlir's (the same masks,
// in the same runtime arguments), 128 the dQ kernel's query rows (128).
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
    gpu.func @attention_delta(%o: !ws.tensor_desc<tensor<1x1x32x64xbf16>>, %do: !ws.tensor_desc<tensor<1x1x32x64xbf16>>,
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
        %to = "ws.load"(%o, %bzi, %byi, %r0, %c0) : (!ws.tensor_desc<tensor<1x1x32x64xbf16>>, i32, i32, i32, i32) -> tensor<32x64xbf16>
        %tdo = "ws.load"(%do, %bzi, %byi, %r0, %c0) : (!ws.tensor_desc<tensor<1x1x32x64xbf16>>, i32, i32, i32, i32) -> tensor<32x64xbf16>
        %of = arith.extf %to : tensor<32x64xbf16> to tensor<32x64xf32>
        %dof = arith.extf %tdo : tensor<32x64xbf16> to tensor<32x64xf32>
        %prod = arith.mulf %of, %dof : tensor<32x64xf32>
        %rows = "ws.reduce"(%prod) {kind = "sum", axis = 1 : i32} : (tensor<32x64xf32>) -> tensor<1x32xf32>
        "ws.store"(%delta, %bzi, %byi, %c0, %r0, %rows) : (!ws.tensor_desc<tensor<1x1x1x32xf32>>, i32, i32, i32, i32, tensor<1x32xf32>) -> ()
      } {ws.warp_specialize}
      gpu.return
    }

    gpu.func @attention_dkdv(%q: !ws.tensor_desc<tensor<1x1x64x64xbf16>>, %k: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %v: !ws.tensor_desc<tensor<1x1x128x64xbf16>>,
                             %do: !ws.tensor_desc<tensor<1x1x64x64xbf16>>, %lse: !ws.tensor_desc<tensor<1x1x1x64xf32>>, %dlt: !ws.tensor_desc<tensor<1x1x1x64xf32>>,
                             %dk: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %dv: !ws.tensor_desc<tensor<1x1x128x64xbf16>>,
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













      // each query head of the group, its query blocks from the first that
      // sees this block's first key (query i sees key j when j <= i + diag)
      %qpad = arith.addi %qlen, %cbm1 : i32
      %nqb = arith.divui %qpad, %cbm : i32
      %qfirst0 = arith.subi %koff, %diag : i32
      %qfirst = arith.maxsi %qfirst0, %c0 : i32
      %qb0 = arith.divui %qfirst, %cbm : i32
      %nq0 = arith.subi %nqb, %qb0 : i32
      %nq = arith.maxsi %nq0, %c0 : i32
      %steps = arith.muli %group, %nq : i32
      %kdiag = arith.subi %diag, %koff : i32
      %tk = "ws.load"(%k, %bzi, %kvh, %koff, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
      %tv = "ws.load"(%v, %bzi, %kvh, %koff, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
      %zs = arith.constant dense<0.0> : tensor<128x64xf32>
      %za = arith.constant dense<0.0> : tensor<128x64xf32>
      %r:2 = scf.for %it = %c0 to %steps step %c1 iter_args(%adk = %za, %adv = %za) -> (tensor<128x64xf32>, tensor<128x64xf32>) : i32 {
        %hq = arith.divui %it, %nq : i32
        %qb = arith.remui %it, %nq : i32
        %head = arith.addi %head0, %hq : i32
        %qbs = arith.addi %qb, %qb0 : i32
        %qi = arith.muli %qbs, %cbm : i32
        %tq = "ws.load"(%q, %bzi, %head, %qi, %c0) : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32) -> tensor<64x64xbf16>
        %tdo = "ws.load"(%do, %bzi, %head, %qi, %c0) : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32) -> tensor<64x64xbf16>
        %tl = "ws.load"(%lse, %bzi, %head, %c0, %qi) : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32) -> tensor<1x64xf32>
        %td = "ws.load"(%dlt, %bzi, %head, %c0, %qi) : (!ws.tensor_desc<tensor<1x1x1x64xf32>>, i32, i32, i32, i32) -> tensor<1x64xf32>
        // the transposed scores: a key per row, a query per column
        %st = "ws.dot"(%tk, %tq, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>



        %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x64xi32>
        // keys outside this batch's bounds see no query






        // queries that do not see the key: koff + row > qi + col + diag
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x64xi32>
        %krel = arith.addi %qi, %kdiag : i32
        %krels = tensor.splat %krel : tensor<128x64xi32>
        %kcol = arith.addi %cols, %krels : tensor<128x64xi32>
        %above = arith.cmpi sgt, %rows, %kcol : tensor<128x64xi32>
        %sm = arith.select %above, %ninf, %st : tensor<128x64xi1>, tensor<128x64xf32>
        %sc = tensor.splat %scale : tensor<128x64xf32>
        %ss = arith.mulf %sm, %sc fastmath<contract> : tensor<128x64xf32>
        %lb = "ws.broadcast"(%tl) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
        %sd = arith.subf %ss, %lb fastmath<contract> : tensor<128x64xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<128x64xf32>
        %dpt = "ws.dot"(%tv, %tdo, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %db = "ws.broadcast"(%td) {axis = 1 : i32} : (tensor<1x64xf32>) -> tensor<128x64xf32>
        %dd = arith.subf %dpt, %db : tensor<128x64xf32>
        %ds0 = arith.mulf %p, %dd : tensor<128x64xf32>
        // with the soft cap, d(cap tanh(s x / cap)) / ds = x (1 - tanh^2)




        %pt = arith.truncf %p : tensor<128x64xf32> to tensor<128x64xbf16>
        %dst = arith.truncf %ds0 : tensor<128x64xf32> to tensor<128x64xbf16>
        %ndv = "ws.dot"(%pt, %tdo, %adv) : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %ndk = "ws.dot"(%dst, %tq, %adk) : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %ndk, %ndv : tensor<128x64xf32>, tensor<128x64xf32>
      } {ws.warp_specialize}
      %dsc = tensor.splat %dscale : tensor<128x64xf32>
      %dkf = arith.mulf %r#0, %dsc : tensor<128x64xf32>
      %dkt = arith.truncf %dkf : tensor<128x64xf32> to tensor<128x64xbf16>
      %dvt = arith.truncf %r#1 : tensor<128x64xf32> to tensor<128x64xbf16>
      "ws.store"(%dk, %bzi, %kvh, %koff, %c0, %dkt) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, tensor<128x64xbf16>) -> ()
      "ws.store"(%dv, %bzi, %kvh, %koff, %c0, %dvt) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, tensor<128x64xbf16>) -> ()
      gpu.return
    }

    gpu.func @attention_dq(%q: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %k: !ws.tensor_desc<tensor<1x1x64x64xbf16>>, %v: !ws.tensor_desc<tensor<1x1x64x64xbf16>>,
                           %do: !ws.tensor_desc<tensor<1x1x128x64xbf16>>, %lse: !ws.tensor_desc<tensor<1x1x1x128xf32>>, %dlt: !ws.tensor_desc<tensor<1x1x1x128xf32>>,
                           %dq: !ws.tensor_desc<tensor<1x1x128x64xbf16>>,
                           %qlen: i32, %kvlen: i32, %starts: memref<?xi32>, %ends: memref<?xi32>,
                           %diag: i32, %group: i32, %scale: f32, %cap: f32, %dscale: f32) kernel
        attributes {ws.num_warps = 8 : i32} {
      %c0 = arith.constant 0 : i32
      %cbm = arith.constant 128 : i32
      %cbn = arith.constant 64 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %bxi = arith.index_cast %bx : index to i32
      %byi = arith.index_cast %by : index to i32
      %bzi = arith.index_cast %bz : index to i32
      %kvh = arith.divui %byi, %group : i32
      // the query blocks from a head's last (the most keys) to its first,
      // as the forward's
      %cbm1 = arith.constant 127 : i32
      %qpad = arith.addi %qlen, %cbm1 : i32
      %nqb = arith.divui %qpad, %cbm : i32
      %qlast = arith.subi %nqb, %bxi : i32
      %c1 = arith.constant 1 : i32
      %qb = arith.subi %qlast, %c1 : i32
      %qoff = arith.muli %qb, %cbm : i32
      // the keys this batch's queries see, as the forward's loop runs
      %i0 = arith.constant 0 : index
      %first_key = memref.load %starts[%bz] : memref<?xi32>
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
      %tq = "ws.load"(%q, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
      %tdo = "ws.load"(%do, %bzi, %byi, %qoff, %c0) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32) -> tensor<128x64xbf16>
      %zs = arith.constant dense<0.0> : tensor<128x64xf32>
      %zq = arith.constant dense<0.0> : tensor<128x64xf32>
      %r = scf.for %kv = %c0 to %end step %cbn iter_args(%adq = %zq) -> (tensor<128x64xf32>) : i32 {
        %tk = "ws.load"(%k, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32) -> tensor<64x64xbf16>
        %tv = "ws.load"(%v, %bzi, %kvh, %kv, %c0) : (!ws.tensor_desc<tensor<1x1x64x64xbf16>>, i32, i32, i32, i32) -> tensor<64x64xbf16>
        // the rows' log-sum-exp and Delta, read again each step (a row vector
        // loaded before a matmul loop does not cross into it yet)
        %tl = "ws.load"(%lse, %bzi, %byi, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x128xf32>>, i32, i32, i32, i32) -> tensor<1x128xf32>
        %td = "ws.load"(%dlt, %bzi, %byi, %c0, %qoff) : (!ws.tensor_desc<tensor<1x1x1x128xf32>>, i32, i32, i32, i32) -> tensor<1x128xf32>
        %s = "ws.dot"(%tq, %tk, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>



        %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
        %cols = "ws.iota"() {axis = 1 : i32} : () -> tensor<128x64xi32>








        %rows = "ws.iota"() {axis = 0 : i32} : () -> tensor<128x64xi32>
        %kvrel = arith.subi %kv, %qdiag : i32
        %kvs = tensor.splat %kvrel : tensor<128x64xi32>
        %kcol = arith.addi %cols, %kvs : tensor<128x64xi32>
        %above = arith.cmpi sgt, %kcol, %rows : tensor<128x64xi32>
        %sm = arith.select %above, %ninf, %s : tensor<128x64xi1>, tensor<128x64xf32>
        %sc = tensor.splat %scale : tensor<128x64xf32>
        %ss = arith.mulf %sm, %sc fastmath<contract> : tensor<128x64xf32>
        %lb = "ws.broadcast"(%tl) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %sd = arith.subf %ss, %lb fastmath<contract> : tensor<128x64xf32>
        %p = math.exp2 %sd fastmath<afn> : tensor<128x64xf32>
        %dp = "ws.dot"(%tdo, %tv, %zs) {transpose_b} : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        %db = "ws.broadcast"(%td) {axis = 0 : i32} : (tensor<1x128xf32>) -> tensor<128x64xf32>
        %dd = arith.subf %dp, %db : tensor<128x64xf32>
        %ds0 = arith.mulf %p, %dd : tensor<128x64xf32>




        %dst = arith.truncf %ds0 : tensor<128x64xf32> to tensor<128x64xbf16>
        %ndq = "ws.dot"(%dst, %tk, %adq) : (tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32>) -> tensor<128x64xf32>
        scf.yield %ndq : tensor<128x64xf32>
      } {ws.warp_specialize}
      %dsc = tensor.splat %dscale : tensor<128x64xf32>
      %dqf = arith.mulf %r, %dsc : tensor<128x64xf32>
      %dqt = arith.truncf %dqf : tensor<128x64xf32> to tensor<128x64xbf16>
      "ws.store"(%dq, %bzi, %byi, %qoff, %c0, %dqt) : (!ws.tensor_desc<tensor<1x1x128x64xbf16>>, i32, i32, i32, i32, tensor<128x64xbf16>) -> ()
      gpu.return
    }
  }
}
