"""Expectations of samples/row_pair_swap.py: the rows 2i and 2i + 1 of the leading axis swapped."""

from __future__ import annotations

from expectations import SampleSpec


def ref_row_pair_swap(x):
    h = x.shape[0]
    return (x.reshape(h // 2, 2, *x.shape[1:])[:, ::-1].reshape(x.shape),)


SPEC = SampleSpec(
    name="row_pair_swap",
    kernel="row_pair_swap",
    configs={"b2x8x128": (2, 8, 128), "b4x16x128": (4, 16, 128)},
    reference=ref_row_pair_swap,
    extra_shapes=("x=2x1x1:f32", "x=4x3x5:bf16"),
    notes="pairs of a leading tile's rows, permuted last for hl.split and back",
)
