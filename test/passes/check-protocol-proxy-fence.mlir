// Broken protocols, rule proxy-fence: a fence.proxy.async separates generic accesses of a slot from the arrive that hands it to the async proxy.
// Each RUN edits a saved plan (Inputs/check-protocol-{add,matmul}.mlir) by hand
// and ws-check-protocol must reject it at the op that breaks the rule.

// Case RELEASE_FENCE, the fence between the generic reads and the release to TMA deleted.
// RUN: sed '35d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RELEASE_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer

// Case PUBLISH_FENCE, the fence between the generic write and the publish to the TMA store deleted.
// RUN: sed '41d' %S/Inputs/check-protocol-add.mlir \
// RUN:   | not ws-opt --pass-pipeline='builtin.module(ws-check-protocol)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PUBLISH_FENCE --implicit-check-not=error: --implicit-check-not=Sanitizer

// RELEASE_FENCE: <stdin>:35:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 0 to the async proxy (the TMA refill at 58:13) after a generic-proxy read of it (ws.read_slot at 33:16) with no fence.proxy.async of shared memory (kind async, or async.shared of the CTA or cluster) in between
// PUBLISH_FENCE: <stdin>:41:11: error: 'ws.arrive' op breaks the protocol rule 'proxy-fence': hands slot 0 of channel 1 to the async proxy (its reader at 74:13) after a generic-proxy write of it (ws.write_slot at 40:11) with no fence.proxy.async of shared memory (kind async, or async.shared of the CTA or cluster) in between
