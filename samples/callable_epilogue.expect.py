"""Expectations of samples/callable_epilogue.py: callable parameters passed at run time. The
callables are arguments of the kernel (SampleSpec.scalars), so they are JAX code; the reference
knows each by identity.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


CALLABLE_BIAS = jnp.asarray(np.random.default_rng(13).standard_normal(4096), jnp.bfloat16)


def bias_epilogue(acc, tile):
    """test_pallas matmul_custom's epilogue: reads an array it closes over, at the tile."""
    return acc + CALLABLE_BIAS[tile[1]]


def relu_epilogue(acc, tile):
    """An epilogue that closes over nothing and ignores the tiles."""
    return jnp.maximum(acc, 0.0)


def ref_callable_epilogue(x, y, epilogue):
    product = f64(x) @ f64(y)
    if epilogue is bias_epilogue:
        result = product + f64(np.asarray(CALLABLE_BIAS.astype(jnp.float32)))[None, : y.shape[1]]
    else:
        assert epilogue is relu_epilogue
        result = np.maximum(product, 0.0)
    return (result.astype(x.dtype),)


SPEC = SampleSpec(
    name="callable_epilogue",
    kernel="callable_epilogue",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_callable_epilogue,
    scalars=({"epilogue": bias_epilogue}, {"epilogue": relu_epilogue}),
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((2, "x", 1),),
    notes="test_pallas matmul_custom: a closure over an array, applied on the host",
)
