// Broken protocols, rule proxy-fence, by the fence's kind: a fence.proxy orders a
// slot's generic accesses against the async proxy (TMA, wgmma, bulk stores) only
// when its kind is async (every state space) or async.shared of the CTA or the
// cluster. Each RUN turns one fence of a saved plan (test/passes/Inputs/, every
// kind of kernel that has one) into fence.proxy.async.global, which orders global
// memory alone, and ws-check-protocol must refuse the arrive that hands the slot
// on (row kernels, split-K and stream-K, every matmul and attention form, clusters,
// tcgen05 and pairs). The VALID runs give every fence of a plan the kind async, or the cluster's
// space: both order the CTA's shared memory, and the plan is proved.

// RUN: sed '35s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K0 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K0: <stdin>:36:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '41s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K1 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K1: <stdin>:42:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '154s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-attention-fp8.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K2 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K2: <stdin>:155:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '207s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-attention-pipelined.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K3 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K3: <stdin>:208:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '147s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K4 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K4: <stdin>:148:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '164s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-attention-varlen.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K5 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K5: <stdin>:165:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '100s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-attention.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K6 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K6: <stdin>:101:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '55s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-block-scale-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K7 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K7: <stdin>:56:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '50s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K8 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K8: <stdin>:51:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '66s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K9 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K9: <stdin>:67:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '74s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-block-scales.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K10 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K10: <stdin>:75:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '109s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-cluster-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K11 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K11: <stdin>:110:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '69s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K12 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K12: <stdin>:70:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '40s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K13 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K13: <stdin>:41:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '51s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-deep.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K14 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K14: <stdin>:52:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '68s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K15 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K15: <stdin>:69:15: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 1 of channel 0 to the async proxy

// RUN: sed '92s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K16 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K16: <stdin>:93:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '119s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K17 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K17: <stdin>:120:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 1 of channel 0 to the async proxy

// RUN: sed '129s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K18 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K18: <stdin>:130:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '69s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K19 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K19: <stdin>:70:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '56s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-pair-mx.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K20 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K20: <stdin>:57:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '72s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-pair-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K21 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K21: <stdin>:73:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '56s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-pair.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K22 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K22: <stdin>:57:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '75s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K23 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K23: <stdin>:76:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '85s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K24 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K24: <stdin>:86:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '101s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K25 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K25: <stdin>:102:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '111s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K26 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K26: <stdin>:112:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '69s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K27 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K27: <stdin>:70:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '78s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K28 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K28: <stdin>:79:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 1 of channel 1 to the async proxy

// RUN: sed '87s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K29 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K29: <stdin>:88:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 2 of channel 1 to the async proxy

// RUN: sed '96s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K30 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K30: <stdin>:97:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 3 of channel 1 to the async proxy

// RUN: sed '63s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-tcgen05-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K33 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K33: <stdin>:64:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '73s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-tcgen05-persistent.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K34 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K34: <stdin>:74:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '55s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K35 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K35: <stdin>:56:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '38s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-rows.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K100 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K100: <stdin>:39:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '73s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-rows.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K101 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K101: <stdin>:74:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '87s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-rows.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K102 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K102: <stdin>:88:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '46s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-row-blocks.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K103 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K103: <stdin>:47:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '70s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-row-blocks.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K104 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K104: <stdin>:71:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '78s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-row-blocks.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K105 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K105: <stdin>:79:9: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy

// RUN: sed '94s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-split-k.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K106 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K106: <stdin>:95:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '107s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-split-k.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K107 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K107: <stdin>:108:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed '129s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-stream-k.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K200 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K200: <stdin>:130:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy

// RUN: sed '140s/async.shared>, space = #nvvm.shared_space<cta>/async.global>/' %S/Inputs/check-protocol-stream-k.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=K201 --implicit-check-not=error: --implicit-check-not=Sanitizer
// K201: <stdin>:141:13: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 2 to the async proxy

// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-add.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-matmul.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-persistent.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-pingpong.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-attention-turns.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-cluster.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-lag.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-tcgen05.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/async.shared>, space = #nvvm.shared_space<cta>/async>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
// RUN: sed 's/shared_space<cta>/shared_space<cluster>/' %S/Inputs/check-protocol-store-boxes.mlir \
// RUN:   | ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' -o /dev/null
