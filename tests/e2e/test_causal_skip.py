"""Causal attention skips the key blocks above the diagonal under every strategy (issue 9).

The compiler proves that a step whose key block lies entirely past the queries' last index
leaves the online-softmax carries unchanged (passes/plan_skips.h) and skips it: `pl.when` on
the grid, a shorter loop otherwise. Skipped blocks are decided at run time, so the products are
counted by executing: every matrix product of the kernel body (`_dot`) reports itself through
`jax.debug.callback` in interpret mode. With S = 1024 and 128 x 128 blocks, 36 of the 8 x 8
block pairs lie on or below the diagonal; each computes two products (scores and values).
"""

from __future__ import annotations

import jax
import numpy as np
import pytest

from e2e_support import assert_matches
from expectations import PRODUCT_TOLERANCE
from references import reference_of

ref_causal_attention_output = reference_of("causal_attention")

STRATEGIES = ("grid", "unroll", "emit_pipeline", "fori_loop")
S, D, BLOCK = 1024, 64, 128
BLOCKS = S // BLOCK
ON_OR_BELOW_DIAGONAL = BLOCKS * (BLOCKS + 1) // 2  # 36 of 64


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_causal_attention_skips_blocks_above_the_diagonal(helionc, strategy, monkeypatch):
    module = helionc.module("causal_attention", "causal_attention_output", f"skip-{strategy}",
                            block_sizes=(1, BLOCK, BLOCK), loop_types=(strategy,))
    products = []
    original = module._dot

    def counted(*args, **kwargs):
        jax.debug.callback(lambda: products.append(1))
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "_dot", counted)
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((1, 1, S, D)).astype(np.float32) for _ in range(3))
    out = module.causal_attention_output(q, k, v, interpret=True)
    jax.block_until_ready(out)
    assert len(products) == 2 * ON_OR_BELOW_DIAGONAL, (
        f"{strategy}: {len(products) // 2} block products executed, "
        f"{ON_OR_BELOW_DIAGONAL} of {BLOCKS * BLOCKS} lie on or below the diagonal")
    assert_matches(np.asarray(out), ref_causal_attention_output(q, k, v)[0], "out",
                   PRODUCT_TOLERANCE)
