"""The work of a kernel's whole grid, by evaluating its scalar control flow (mosaic_counts).

At every grid index the kernel body is walked with the program ids bound to the index: integer
constants and scalar arithmetic, compares and selects are evaluated, so `pl.when` (`scf.if`)
conditions and `scf.for` / `scf.while` bounds that depend on the program ids are decided as the
TPU would decide them, and every op that runs adds its cost (mosaic_counts.op_cost). Values the
walk cannot know (vectors, SMEM loads) are unknown; a branch or bound that depends on one is
counted as per_step counts it and tallied in `undecided`. This is what says how many key blocks
a causal kernel really multiplies.
"""

from __future__ import annotations

import itertools
import re

from mosaic_counts import FOR_LOOP, INT_CONSTANT, Counts, OpCosts, int_literal, operand_value
from mosaic_mlir import Func, Module, Op

_BINARY = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b, "arith.maxsi": max, "arith.minsi": min,
    "arith.maxui": max, "arith.minui": min,
    "arith.divsi": lambda a, b: int(a / b) if b else None,
    "arith.divui": lambda a, b: a // b if b else None,
    "arith.floordivsi": lambda a, b: a // b if b else None,
    "arith.ceildivsi": lambda a, b: -(-a // b) if b else None,
    "arith.remsi": lambda a, b: a - b * int(a / b) if b else None,
    "arith.remui": lambda a, b: a % b if b else None,
    "arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b, "arith.shli": lambda a, b: a << b,
    "arith.shrsi": lambda a, b: a >> b, "arith.shrui": lambda a, b: a >> b,
}
_COMPARE = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b, "sle": lambda a, b: a <= b, "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b, "ult": lambda a, b: a < b, "ule": lambda a, b: a <= b,
    "ugt": lambda a, b: a > b, "uge": lambda a, b: a >= b,
}
_CASTS = frozenset({"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
                    "arith.trunci"})
MAX_WHILE_TRIPS = 1 << 16


def executed(func: Func, module: Module | None = None, prefer_file: str | None = None,
             grid: tuple[int, ...] | None = None) -> tuple[Counts, int]:
    """(the work of the whole grid, the number of grid steps)."""
    grid = func.iteration_bounds() if grid is None else grid
    args = func.arguments()
    cost = OpCosts(module, prefer_file)
    total = Counts()
    steps = 0
    for index in itertools.product(*(range(n) for n in grid)):
        env = dict(zip(args, index))
        total.add(_run(func.body, env, cost))
        steps += 1
    return total, steps


def _run(ops: list[Op], env: dict, cost: OpCosts) -> Counts:
    total = Counts()
    for op in ops:
        total.add(cost(op))
        if op.name == "scf.yield":
            env["__yield__"] = [env.get(v) for v in op.operands()]
        elif op.name == "scf.condition":
            names = op.operands()
            env["__condition__"] = [env.get(v) for v in names]
        elif op.name == "scf.if":
            total.add(_run_if(op, env, cost))
        elif op.name == "scf.for":
            total.add(_run_for(op, env, cost))
        elif op.name == "scf.while":
            total.add(_run_while(op, env, cost))
        elif op.regions:
            for region in op.regions:
                total.add(_run(region, env, cost))
        elif op.results:
            env[op.results[0]] = _eval_scalar(op, env)
    return total


def _run_if(op: Op, env: dict, cost: OpCosts) -> Counts:
    condition = env.get(op.operands()[0]) if op.operands() else None
    if condition is None:
        # undecided: count the heavier branch, as per_step does
        options = [_run(r, dict(env), cost) for r in op.regions]
        chosen = max(options, key=Counts.weight)
        chosen.undecided += 1
        return chosen
    if not condition and len(op.regions) < 2:
        return Counts()
    region = op.regions[0] if condition else op.regions[1]
    env.pop("__yield__", None)
    counts = _run(region, env, cost)
    _bind(op.results, env.pop("__yield__", []), env)
    return counts


_ITER_ARGS = re.compile(r"iter_args\((.*)\)\s*->")


def _iter_args(op: Op) -> list[tuple[str, str]]:
    found = _ITER_ARGS.search(op.text)
    if not found:
        return []
    return re.findall(r"(%[\w.$-]+)\s*=\s*(%[\w.$-]+)", found.group(1))


def _run_for(op: Op, env: dict, cost: OpCosts) -> Counts:
    found = FOR_LOOP.search(op.text)
    bounds = [operand_value(t, env) for t in found.groups()[1:]] if found else [None]
    carried = _iter_args(op)
    for inner, init in carried:
        env[inner] = env.get(init)
    total = Counts()
    if any(b is None for b in bounds):
        total.undecided += 1
        body = _run(op.regions[0], env, cost)
        total.add(body)
        _bind(op.results, [None] * len(carried), env)
        return total
    for i in range(bounds[0], bounds[1], bounds[2]):
        env[found.group(1)] = i
        env.pop("__yield__", None)
        total.add(_run(op.regions[0], env, cost))
        _bind([inner for inner, _ in carried], env.pop("__yield__", []), env)
    _bind(op.results, [env.get(inner) for inner, _ in carried], env)
    return total


def _run_while(op: Op, env: dict, cost: OpCosts) -> Counts:
    # `scf.while (%a = %init, ...) : (...) -> (...) { before } do { after }`
    header = re.search(r"scf\.while\s*\((.*?)\)\s*:", op.text)
    pairs = re.findall(r"(%[\w.$-]+)\s*=\s*(%[\w.$-]+)", header.group(1)) if header else []
    values = [env.get(init) for _, init in pairs]
    before_args = [inner for inner, _ in pairs]
    after_args = _block_args(op.regions[1]) if len(op.regions) > 1 else []
    total = Counts()
    for _ in range(MAX_WHILE_TRIPS):
        _bind(before_args, values, env)
        total.add(_run(op.regions[0], env, cost))
        condition = env.pop("__condition__", [None])
        if condition[0] is None:
            total.undecided += 1
            break
        if not condition[0]:
            _bind(op.results, condition[1:], env)
            break
        _bind(after_args, condition[1:], env)
        env.pop("__yield__", None)
        if len(op.regions) > 1:
            total.add(_run(op.regions[1], env, cost))
        values = env.pop("__yield__", [])
    return total


def _block_args(region: list[Op]) -> list[str]:
    # `^bb0(%arg9: i32, ...):` is printed as the first line of the `do` region
    if region and region[0].text.startswith("^"):
        return re.findall(r"(%[\w.$-]+)\s*:", region[0].text)
    return []


def _bind(names: list[str], values: list, env: dict) -> None:
    for name, value in itertools.zip_longest(names, values):
        if name is not None:
            env[name] = value


def _eval_scalar(op: Op, env: dict):
    """The value of a scalar integer op, or None when it is not one or depends on unknowns."""
    if op.vectors():
        return None
    if op.name == "arith.constant":
        found = INT_CONSTANT.match(op.text.split("=", 1)[1].strip())
        if not found:
            return None
        return int_literal(found.group(1))
    args = [env.get(v) for v in op.operands()]
    if any(a is None for a in args):
        return None
    if op.name in _BINARY and len(args) == 2:
        return _BINARY[op.name](*args)
    if op.name == "arith.cmpi" and len(args) == 2:
        predicate = op.text.split("arith.cmpi", 1)[1].split(",", 1)[0].strip()
        compare = _COMPARE.get(predicate)
        return int(compare(*args)) if compare else None
    if op.name == "arith.select" and len(args) == 3:
        return args[1] if args[0] else args[2]
    if op.name in _CASTS and len(args) == 1:
        return args[0]
    return None
