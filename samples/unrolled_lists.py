"""Lists made by comprehensions and `list(...)`/`tuple(...)`, in host and device code, iterated
by `for` loops in device code, and a dict comprehension read by constant keys. helionc unrolls
them while compiling, as lists written out (a comprehension's iterable must be a list or tuple
of known length or a `range` of int literals): `weights` is `[0.5, 1.0, 1.5]` and each `for`
over it is three copies of its body."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def unrolled_lists(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """A weighted sum of ``x`` and ``y`` (one shape, 1-D) whose weights come from unrolled
    lists: ``out = 18.5 * x + 7 * y`` in float32, cast back to x's dtype."""
    (n,) = x.size()
    out = torch.empty_like(x)
    weights = [w * 0.5 for w in (1, 2, 3)]  # [0.5, 1.0, 1.5]
    pairs = list(((1, 2), (3, -1)))
    steps = tuple(k + 1 for k in range(3))  # (1, 2, 3)
    tensors = [t for t in (x, y)]  # whole tensors: each loop step indexes one
    factors = {k: k * 2 for k in range(1, 3)}  # {1: 2, 2: 4}, read by constant keys
    for tile in hl.tile(n):
        xv = x[tile].to(torch.float32)
        yv = y[tile].to(torch.float32)
        acc = torch.zeros([tile], dtype=torch.float32, device=x.device)
        for w in weights:
            acc += xv * w
        for a, b in pairs:
            acc += a * xv - b * yv
        terms = [xv * s for s in steps]  # tiles, in device code
        for term in terms:
            acc += term
        cross = [p * q for p in (1, 2) for q in (3, -1)]  # [3, -1, 6, -2]
        for c in cross:
            acc += c * yv
        for t in tensors:
            acc += t[tile].to(torch.float32)
        for i, m in enumerate((2, 3)):  # a list written out, in `enumerate`
            acc += (i * m) * yv
        acc += xv * factors[2] - yv * factors[1] + weights[0] * xv
        out[tile] = acc.to(x.dtype)
    return out


def main() -> None:
    x = torch.randn(1000, device="cuda")
    y = torch.randn(1000, device="cuda")
    torch.testing.assert_close(unrolled_lists(x, y), 18.5 * x + 7 * y)


if __name__ == "__main__":
    main()
