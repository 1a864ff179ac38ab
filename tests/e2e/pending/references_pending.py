"""Numpy references for the pending issue-3 kernels in this directory (not yet in samples/).

Same rules as the samples' expectation files (tests/e2e/expectations.py): written from the
kernels' meaning, never from helionc output; computed in float64 from the inputs and rounded once
to the dtype PyTorch gives the result. Each entry is a `SampleSpec` (from expectations.py) whose
`name` is the pending file's stem, so moving a kernel to samples/ means moving its files and
writing its spec (as `SPEC`) and reference function into samples/<name>.expect.py.

16-bit inputs: PyTorch accumulates reductions of bf16/f16 in float32 and rounds the result once
(`torch.sum`, `torch.mean`, `F.softmax`, `F.log_softmax`); kernels that widen with
`.to(torch.float32)` compute everything in float32. Both agree with "float64, then round once"
to well within the tolerances below.

Tolerances: the defaults of e2e_support.TOLERANCES (tests/e2e/README.md): float32 1e-5/1e-5,
bfloat16 2e-2/2e-2 (one rounding of a float32 result, or a few bf16 roundings of O(1) values:
the maxima, the losses), int32 indices and embedding rows exact. The kernels already in samples/
have their references and overrides in their expectation files, and the shared index-input
generators (`remember_shape`, `indices_below`: the table tensor comes first on a `.shapes` line)
are in expectations.py.
"""

from __future__ import annotations

import dataclasses
import pathlib
import sys

import numpy as np

_E2E = pathlib.Path(__file__).resolve().parents[1]
if str(_E2E) not in sys.path:
    sys.path.insert(0, str(_E2E))

from e2e_support import Call, f64, parse_call, read_shapes_file  # noqa: E402
from expectations import (  # noqa: E402
    PRODUCT_TOLERANCE,
    SUM_TOLERANCE,
    SampleSpec,
    indices_below,
    remember_shape,
)
from references import reference_of  # noqa: E402

PENDING_DIR = pathlib.Path(__file__).resolve().parent

# ---------------------------------------------------------------------------------------------
# references


# ---------------------------------------------------------------------------------------------
# the pending kernels


@dataclasses.dataclass(frozen=True)
class Pending:
    spec: SampleSpec
    needs: str  # what the compiler must support before it can pass (one line)


PENDING: tuple[Pending, ...] = (
    # --- issue 4: inner loops, in the forms Helion's examples use (samples/ holds the forms
    # helionc compiles today) ---
    Pending(
        SampleSpec(
            name="long_sum",
            kernel="long_sum",
            configs={"b512x8": (512, 8), "b2048x16": (2048, 16)},  # block_size_n is registered first
            reference=reference_of("long_sum"),
            extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
            tolerance=SUM_TOLERANCE,
            loop_types=(("unroll",), ("grid",)),
            inner_dims=((0, "x", 1),),
        ),
        "a registered block size as a shape entry: hl.zeros([tile_m, block_size_n])",
    ),
    Pending(
        SampleSpec(
            name="matmul_layernorm",
            kernel="matmul_layernorm",
            configs={"b8x128": (8, 128), "b32x256": (32, 256)},
            reference=reference_of("matmul_layernorm"),
            extra_shapes=("x=9x130:bf16,y=130x129:bf16,weight=129:bf16,bias=129:bf16",),
            tolerance=PRODUCT_TOLERANCE,
            loop_types=(("unroll",), ("grid",)),
            inner_dims=((1, "x", 1),),
        ),
        "hl.register_reduction_dim, torch.var_mean, hl.zeros([tile_m, n]) of a host size",
    ),
    Pending(
        SampleSpec(
            name="attention_helion",
            kernel="attention",
            configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
            reference=reference_of("attention_lse"),
            tolerance=PRODUCT_TOLERANCE,
            loop_types=(("unroll",), ("grid",)),
            inner_dims=((2, "k_in", -2),),
        ),
        "hl.zeros([.., head_dim]) where head_dim is the last axis of q_in, whose rank is known only at trace time; x.size()[:-1]",
    ),
)

PENDING_BY_NAME = {p.spec.name: p for p in PENDING}


def pending_calls_of(spec: SampleSpec) -> list[Call]:
    """The pending sidecar's calls, then the extra test-only shapes."""
    return read_shapes_file(PENDING_DIR / f"{spec.name}.shapes") + [parse_call(s) for s in spec.extra_shapes]
