"""Work counted from a kernel's Mosaic MLIR: MXU flops, VPU and EUP elements, VMEM traffic.

Two counts of one kernel body (mosaic_mlir.Func), both with the costs of `op_cost`:

- `per_step`: the work of one grid step, read statically. Every region runs once (of an
  if/else, the heavier branch: a `pl.when` body counts as taken), an `scf.for` body counts times
  its trip count when its bounds are constants, once otherwise (and the loop is listed in
  `dynamic_loops`).
- `mosaic_eval.executed`: the work of the whole grid, evaluating the scalar control flow at
  every grid index (see there).

What an op costs (`op_cost`), by the unit that runs it on a TPU TensorCore:
- MXU: `tpu.matmul` / `vector.contract`, 2 * M * N * K flops (batch dimensions included);
- EUP: transcendental elementwise ops (exp, exp2, log, tanh, rsqrt, ..., and `arith.divf`,
  which is a reciprocal on the EUP), by result elements;
- VPU: the other elementwise arith/math ops on vectors, compares and selects, iotas and
  broadcasts by result elements, reductions (`vector.multi_reduction`) by source elements;
- loads / stores: elements moved between VMEM and vector registers (`vector.load`,
  `tpu.vector_store`, ...);
- relayout: shape casts, bitcasts, concatenations, transposes, slices (free, copies or XLU
  work depending on the layouts), by result elements; reported apart, not in VPU;
- scalar: integer/index ops on scalars (the scalar unit), by op count; DMAs by op count.
Splat constants are free (materialised once). Element counts ignore dtype: a bf16 vector of
N elements counts N, like an f32 one.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter

from mosaic_mlir import Func, Module, Op

EUP_OPS = frozenset({
    "math.exp", "math.exp2", "math.expm1", "math.log", "math.log2", "math.log10", "math.log1p",
    "math.tanh", "math.rsqrt", "math.sqrt", "math.erf", "math.erfc", "math.sin", "math.cos",
    "math.tan", "math.asin", "math.acos", "math.atan", "math.atan2", "math.sinh", "math.cosh",
    "math.asinh", "math.acosh", "math.atanh", "math.powf", "math.cbrt", "arith.divf",
    "tpu.reciprocal", "tpu.erf_inv",
})
MXU_OPS = frozenset({"tpu.matmul", "vector.contract"})
LOAD_OPS = frozenset({"vector.load", "tpu.load", "tpu.strided_load", "vector.transfer_read",
                      "vector.maskedload"})
STORE_OPS = frozenset({"vector.store", "tpu.vector_store", "tpu.store", "tpu.strided_store",
                       "vector.transfer_write", "vector.maskedstore"})
REDUCTION_OPS = frozenset({"vector.multi_reduction", "vector.reduction", "tpu.all_reduce"})
VPU_VECTOR_OPS = frozenset({"vector.broadcast", "tpu.iota", "vector.splat", "vector.fma"} | REDUCTION_OPS)
RELAYOUT_OPS = frozenset({
    "vector.shape_cast", "tpu.concatenate", "vector.extract_strided_slice", "vector.transpose",
    "tpu.transpose", "tpu.repeat", "tpu.relayout", "vector.extract", "vector.insert",
    "vector.insert_strided_slice", "tpu.roll", "tpu.dynamic_rotate", "tpu.gather",
    "tpu.dynamic_gather", "vector.bitcast", "tpu.bitcast", "arith.bitcast",
})
DMA_OPS = frozenset({"tpu.enqueue_dma", "tpu.enqueue_indirect_dma"})
FREE_OPS = frozenset({"arith.constant"})


@dataclasses.dataclass
class Counts:
    """Totals per metric, with the elements behind them by (metric, op name) and by
    (metric, source line)."""

    totals: Counter = dataclasses.field(default_factory=Counter)
    by_op: Counter = dataclasses.field(default_factory=Counter)
    by_line: Counter = dataclasses.field(default_factory=Counter)
    dynamic_loops: int = 0  # scf.for loops whose trip count is not a constant (counted once)
    undecided: int = 0  # executed: conditions or bounds the evaluation could not decide

    def __getitem__(self, metric: str) -> int:
        return self.totals[metric]

    def add(self, other: "Counts", times: int = 1) -> None:
        for counter, theirs in ((self.totals, other.totals), (self.by_op, other.by_op),
                                (self.by_line, other.by_line)):
            for key, value in theirs.items():
                counter[key] += value * times
        self.dynamic_loops += other.dynamic_loops
        self.undecided += other.undecided

    def weight(self) -> tuple[int, int, int]:
        """How heavy a branch is, to pick the one a per-step count takes."""
        return (self.totals["mxu_flops"], self.totals["vpu"] + self.totals["eup"],
                self.totals["loads"] + self.totals["stores"])


# ---------------------------------------------------------------------------------------------
# the cost of one op


def _contract_flops(op: Op) -> int:
    vectors = op.vectors()
    if len(vectors) < 2:
        return 0
    lhs, result = vectors[0], vectors[-1]
    if op.name == "tpu.matmul":
        numbers = re.search(r"dot_dimension_numbers<\[([\d,\s]*)\]", op.text)
        if numbers:
            contracting = [int(d) for d in numbers.group(1).split(",") if d.strip()]
        else:  # older form: `transpose_lhs` / `transpose_rhs` attributes
            contracting = [len(lhs.shape) - 2 if "transpose_lhs = true" in op.text else len(lhs.shape) - 1]
        k = 1
        for d in contracting:
            k *= lhs.shape[d]
        return 2 * result.elements * k
    # vector.contract: the iteration space from the indexing maps, sizes from lhs and rhs
    maps = re.findall(r"affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>", op.text)
    if len(maps) < 2:
        return 0
    dims = [d.strip() for d in maps[0][0].split(",")]
    sizes = {}
    for (_, results), vector in zip(maps[:2], vectors[:2]):
        for name, size in zip((r.strip() for r in results.split(",")), vector.shape):
            sizes[name] = size
    space = 1
    for d in dims:
        space *= sizes.get(d, 1)
    return 2 * space


def op_cost(op: Op) -> Counter:
    """{metric: amount} for one op, regions excluded."""
    name = op.name
    if name in FREE_OPS or name.startswith(("scf.", "func.")) or name == "return":
        return Counter()
    if name in DMA_OPS:
        return Counter(dma=1)
    vectors = op.vectors()
    if not vectors:
        if name.startswith(("arith.", "math.", "index.")):
            return Counter(scalar=1)
        return Counter()
    if name in MXU_OPS:
        return Counter(mxu_flops=_contract_flops(op))
    if name in LOAD_OPS:
        return Counter(loads=vectors[-1].elements)
    if name in STORE_OPS:
        return Counter(stores=vectors[-1].elements)
    if name in EUP_OPS:
        return Counter(eup=vectors[-1].elements)
    if name in REDUCTION_OPS:
        # `reduced`: the result's elements, kept to recount issue 9's figures (which counted
        # every op by its result)
        return Counter(vpu=vectors[0].elements, reduced=vectors[-1].elements if len(vectors) > 1 else 1)
    if name in RELAYOUT_OPS:
        return Counter(relayout=vectors[-1].elements)
    if name in VPU_VECTOR_OPS or name.startswith(("arith.", "math.")):
        return Counter(vpu=vectors[-1].elements)
    return Counter()


class OpCosts:
    """op_cost with the op's breakdown keys, cached per op (the evaluation revisits ops)."""

    def __init__(self, module: Module | None, prefer_file: str | None):
        self.module = module
        self.prefer_file = prefer_file
        self._cache: dict[int, Counts] = {}
        self._last_where = "?"

    def __call__(self, op: Op) -> Counts:
        cached = self._cache.get(id(op))
        if cached is None:
            cached = Counts()
            where = self._where(op)
            for metric, amount in op_cost(op).items():
                cached.totals[metric] += amount
                cached.by_op[(metric, op.name)] += amount
                cached.by_line[(metric, where)] += amount
            self._cache[id(op)] = cached
        return cached

    def _where(self, op: Op) -> str:
        """`file:line` of the op; an op printed without one (Mosaic drops the location of some,
        e.g. the selects of `jnp.where`) takes that of the op before it, as first visited, which
        both walks do in textual order."""
        if self.module is None:
            return "?"
        found = self.module.source_line(op, self.prefer_file)
        if found:
            self._last_where = f"{found[0].rsplit('/', 1)[-1]}:{found[1]}"
        return self._last_where


# ---------------------------------------------------------------------------------------------
# per grid step, statically

FOR_LOOP = re.compile(r"scf\.for\s+(%[\w.$-]+)\s*=\s*(\S+)\s+to\s+(\S+)\s+step\s+(\S+)")
INT_CONSTANT = re.compile(r"^arith\.constant\s+(-?\d+|true|false)\s*:\s*(i\d+|index)\b")


def constants_of(ops: list[Op], table: dict[str, int] | None = None) -> dict[str, int]:
    """SSA name -> value of every integer/bool `arith.constant` in ops (all nesting levels)."""
    table = {} if table is None else table
    for op in ops:
        if op.name == "arith.constant" and op.results:
            found = INT_CONSTANT.match(op.text.split("=", 1)[1].strip())
            if found:
                table[op.results[0]] = int_literal(found.group(1))
        for region in op.regions:
            constants_of(region, table)
    return table


def int_literal(text: str) -> int:
    return {"true": 1, "false": 0}[text] if text in ("true", "false") else int(text)


def trip_count(lower: int, upper: int, step: int) -> int:
    return max(0, -(-(upper - lower) // step)) if step > 0 else 0


def per_step(func: Func, module: Module | None = None, prefer_file: str | None = None) -> Counts:
    """The work of one grid step (see the module's docstring)."""
    constants = constants_of(func.body)
    return _static(func.body, constants, OpCosts(module, prefer_file))


def _static(ops: list[Op], constants: dict[str, int], cost: OpCosts) -> Counts:
    total = Counts()
    for op in ops:
        total.add(cost(op))
        if not op.regions:
            continue
        if op.name == "scf.for":
            body = _static(op.regions[0], constants, cost)
            times = _static_trips(op, constants)
            if times is None:
                total.dynamic_loops += 1
                times = 1
            total.add(body, times)
        elif op.name == "scf.if":
            branches = [_static(r, constants, cost) for r in op.regions]
            total.add(max(branches, key=Counts.weight))
        else:  # scf.while, regions of other ops: once each
            for region in op.regions:
                total.add(_static(region, constants, cost))
            if op.name == "scf.while":
                total.dynamic_loops += 1
    return total


def _static_trips(op: Op, constants: dict[str, int]) -> int | None:
    found = FOR_LOOP.search(op.text)
    if not found:
        return None
    bounds = [operand_value(token, constants) for token in found.groups()[1:]]
    if any(b is None for b in bounds):
        return None
    return trip_count(*bounds)


def operand_value(token: str, env: dict) -> int | None:
    token = token.strip()
    if token.startswith("%"):
        return env.get(token)
    try:
        return int(token)
    except ValueError:
        return None
