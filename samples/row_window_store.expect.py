"""Expectations of samples/row_window_store.py: a window of 8 rows stored into a tile of rows (block
8).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_row_window_store(x):
    return ((2 * f64(x) + 1).astype(x.dtype),)


SPEC = SampleSpec(
    name="row_window_store",
    kernel="row_window_store",
    # blocks of 8 rows, the only ones the kernel's meaning holds for (another is the
    # trace-time error of tests/e2e/test_tile_windows.py), and of columns
    configs={"b8x128": (8, 128), "b8x256": (8, 256)},
    reference=ref_row_window_store,
    # 20 rows: a partial last block; 5: one block, shorter than the window
    extra_shapes=("x=5x130:f32", "x=1x1:bf16", "x=33x520:bf16"),
    notes="a window of rows (`tile_m.begin + hl.arange(8)`) stored into a tile of rows",
)
