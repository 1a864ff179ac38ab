"""Expectations of samples/embedding_grad.py: zeros of vocab's shape with every row of dout added at
its id.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec, indices_below, remember_shape


def ref_embedding_grad(dout, ids, vocab):
    out = np.zeros(vocab.shape)
    np.add.at(out, ids.astype(np.int64), f64(dout))
    return (out.astype(vocab.dtype),)


SPEC = SampleSpec(
    name="embedding_grad",
    kernel="embedding_grad",
    # tile_n (lanes), then the inner loop's tile_k
    configs={"b128x8": (128, 8), "b256x32": (256, 32)},
    reference=ref_embedding_grad,
    inputs={"vocab": remember_shape("vocab"), "ids": indices_below("vocab", 0)},
    extra_shapes=("dout=1x1:f32,vocab=1x1:f32,ids=1:i32",
                  "dout=45x7:f32,vocab=3x7:f32,ids=45:i32"),
    simulator_call="dout=100x256:f32,vocab=24x256:f32,ids=100:i32",
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
    # the inner loop stores (a scatter-add), so it streams nothing
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "dout", 0),),
    notes="a scatter-add from an inner loop (an embedding's gradient)",
)
