"""Which cases of a sample's matrix the suite runs: a covering, not the cartesian product.

A sample has configs (block sizes x inner-loop strategies), calls (its `.shapes` sidecar plus
`extra_shapes`) and, for the TPU compile, five generations. Running every combination costs
the product of the three; the faults the suite looks for show up in one or two of them at a
time (a strategy that mishandles partial tiles, a config whose blocks a call does not divide, a
generation's layout rules). So the suite runs, per sample, a set of cases in which

- every config appears at least once,
- every call appears at least once,
- every pair (strategy, shape class) that the matrix has appears at least once, shape classes
  being `dividing`, `partial`, `tiny` and `large` (shape_class),
- for the compile tests, every generation appears at least once,

chosen greedily (the case that covers most of what is still uncovered, the cheapest first on
ties), which is deterministic and is usually a few times smaller than the product.
`HELIONC_E2E_FULL=1` runs the whole product instead (tests/e2e/README.md says when).
"""

from __future__ import annotations

import math
import os
from typing import Callable, Hashable, Iterable, Sequence, TypeVar

from e2e_support import Call, interpretable

SHAPE_CLASSES = ("dividing", "partial", "tiny", "large")

# A call whose largest tensor has at most this many elements is `tiny`: a block at least as
# large as the dimension (one whole-dimension block), the edge the block rules treat apart.
TINY_ELEMENTS = 512

FULL_PRODUCT = os.environ.get("HELIONC_E2E_FULL", "") not in ("", "0")


def divides(call: Call, blocks: Sequence[int]) -> bool:
    """Whether each block size divides each dimension it could tile (or covers it whole): the
    kernel then has no partial tile."""
    return all(d % b == 0 or d <= b for t in call.tensors for d in t.shape for b in blocks)


def elements(call: Call) -> int:
    return sum(math.prod(t.shape) for t in call.tensors)


def shape_class(call: Call, blocks: Sequence[int]) -> str:
    """`large` (too big to interpret: compiled only), `tiny`, `dividing` or `partial`."""
    if not interpretable(call):
        return "large"
    if max(math.prod(t.shape) for t in call.tensors) <= TINY_ELEMENTS:
        return "tiny"
    return "dividing" if divides(call, blocks) else "partial"


Case = TypeVar("Case")


def greedy_cover(cases: Sequence[Case], features: Callable[[Case], Iterable[Hashable]],
                 cost: Callable[[Case], float]) -> list[Case]:
    """A subset of `cases` that has every feature some case has: repeatedly the case with the
    most features not yet covered, the cheapest (then the first) among equals. In input order."""
    wanted = [set(features(c)) for c in cases]
    uncovered = set().union(*wanted) if wanted else set()
    picked: list[int] = []
    while uncovered:
        best = max(range(len(cases)), key=lambda i: (len(wanted[i] & uncovered), -cost(cases[i]), -i))
        picked.append(best)
        uncovered -= wanted[best]
    return [cases[i] for i in sorted(picked)]


def cover_matrix(variants: dict, calls: Sequence[Call], generations: Sequence[str] = ("",)) -> list[tuple]:
    """(config_id, call index, generation) cases covering `variants` x `calls` x `generations`
    as the module docstring says (the full product under HELIONC_E2E_FULL=1)."""
    product = [(cid, i, g) for cid in variants for i in range(len(calls)) for g in generations]
    if FULL_PRODUCT:
        return product

    def features(case):
        cid, i, g = case
        variant = variants[cid]
        shape = shape_class(calls[i], variant.block_sizes)
        yield ("config", cid)
        yield ("call", i)
        yield ("generation", g)
        for strategy in variant.loop_types or ("none",):
            yield ("pair", strategy, shape)

    return greedy_cover(product, features, cost=lambda case: elements(calls[case[1]]))
