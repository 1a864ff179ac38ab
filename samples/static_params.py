"""Parameters that are static values of the trace besides numbers: a string, a dtype and a
device (which the module ignores); a flat input viewed as another's shape (`view_as`) and
transposed (`.T`), casts of whole tensors, and an input's strides unpacked into names."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def static_params(
    x: torch.Tensor,
    flat_y: torch.Tensor,
    mode: str = "add",
    acc_dtype: torch.dtype = torch.float32,
    device: torch.device = None,
) -> torch.Tensor:
    """``x + y`` (mode "add") or ``x * y + x.stride(0)`` (any other mode) in ``acc_dtype``, where
    ``y`` is ``flat_y`` (of x's size) viewed as the shape of ``x.T``, transposed."""
    rows, cols = x.size()
    row_stride, col_stride = x.stride()
    y = flat_y.view_as(x.T).T.to(acc_dtype)
    out = torch.empty([rows, cols], dtype=acc_dtype, device=device)
    for tile_m, tile_n in hl.tile([rows, cols]):
        a = x[tile_m, tile_n].to(acc_dtype)
        if mode == "add":
            out[tile_m, tile_n] = a + y[tile_m, tile_n] * col_stride
        else:
            out[tile_m, tile_n] = a * y[tile_m, tile_n] + row_stride
    return out


def reference(x, flat_y, mode="add", acc_dtype=torch.float32, device=None):
    y = flat_y.view_as(x.T).T.to(acc_dtype)
    a = x.to(acc_dtype)
    return a + y if mode == "add" else a * y + x.stride(0)


def main() -> None:
    x = torch.randn(256, 384, device="cuda")
    flat_y = torch.randn(256 * 384, device="cuda")
    for mode in ("add", "mul"):
        torch.testing.assert_close(static_params(x, flat_y, mode), reference(x, flat_y, mode))


if __name__ == "__main__":
    main()
