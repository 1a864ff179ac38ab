"""Indexing whole tensors in host code: a gather of rows (``x[idx]``) and a slice
(``rows[:, :-1]``) before the launch, which reads their results as it reads any input."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def host_gather(x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    """``x[idx][:, :-1] + 1``: the rows of ``x`` that ``idx`` names, less the last entry of the
    second axis, plus one."""
    rows = x[idx]
    body = rows[:, :-1]
    out = torch.empty_like(body)
    for tile in hl.tile(body.size()):
        out[tile] = body[tile] + 1.0
    return out


def reference(x: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    return x[idx][:, :-1] + 1.0


def main() -> None:
    x = torch.randn(300, 257, device="cuda")
    idx = torch.randint(0, 300, (64,), device="cuda", dtype=torch.int32)
    torch.testing.assert_close(host_gather(x, idx), reference(x, idx))


if __name__ == "__main__":
    main()
