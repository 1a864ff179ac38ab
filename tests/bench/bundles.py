"""Static cycles of a TPU kernel from the TPU compiler's final schedule (`*-final_bundles.txt`).

With `LIBTPU_INIT_ARGS="--xla_jf_dump_to=DIR --xla_jf_dump_llo_text=true"` set before libtpu
loads, the TPU backend writes per compiled kernel `<id>-<hlo name>-<pass>-final_bundles.txt`:
the VLIW bundles the core issues, one per line (a DMA's descriptor comment may span lines):

       0x8 LB: >>> { %s95_s9 = sadd.s32 1, %s286_s9  ;;  %s286_s9 = sphi %s284_s9, %s95_s9 } /* Start region 63 */
       0x9   : >>> { %p92_p3 = scmp.ge.s32.totalorder %s95_s9, 5 /* loop exit test */ }
       0xd   : >> { %94 = sbr.rel (!%p92_p3) target = $region63 }

A bundle issues in one cycle, so the bundles a kernel issues are its static cycles: DMA waits
and stalls add to them, nothing runs faster. The rules this parser applies, read off real dumps
of libtpu 0.10.2 (Pallas matmul, flash attention, nested and dynamic `fori_loop`s, v4 to v7x):

- A bundle is a line `<address> [marker]: [>...] { ... }`; a line without that head continues
  the bundle above (a DMA's multi-line comment). Markers: `LB:` loop body (the first bundle of
  a loop), `PF:` the fallthrough of a predicated region; the `>` marks give the nesting of the
  instructions' source loops, but after scheduling they do not delimit loops (a loop's last
  instructions sit in its branch's delay slots, some with no mark), so they are not used.
- A loop is a backward branch `sbr.rel ([!]%p) target = $regionN` whose target region starts
  (`Start region N` in a bundle's comment) at an `LB:` bundle at or above the branch.
- A branch takes effect after the bundles of its delay slots, and those bundles issue on every
  iteration. A loop's body is its `LB:` bundle through its back branch and the delay slots that
  follow it. The slot count is fixed per generation (DELAY_SLOTS): the bundles between each back
  branch and the first bundle after the loop, in every dump.
- Loops nest by their extents. A loop's cycles per iteration are its own bundles plus each inner
  loop's cycles; its cycles are that times its trip count.
- Trip counts: the branch's predicate is defined by `scmp.<cc>.s32 %a, %b` (the compiler marks
  it `loop exit test` where it knows the bound). One operand is the induction value: a `sphi`
  of an initial value and `sadd.s32 <step>, <the phi>` (the compare reads either the phi or the
  increment, possibly through register copies `smov %x` and spill reloads); the other the bound. Constants are immediates or `smov <imm>` definitions, and
  immediates are 32-bit (4294967295 is -1). Where the initial value, step and bound are all
  constants, the loop is run symbolically to its exit; otherwise (a bound read from a scalar
  operand or memory, a `while` loop) the trip count is unknown and the loop counts one iteration:
  the figures above it are per iteration of that loop, and `exact` is False.
- Forward branches (`pl.when`, the pipeline's first and last steps) are not followed: every
  bundle is counted as issued. `guarded` counts the bundles a forward branch can skip (from
  after its delay slots to its target), so that a reader can see how much of a step is
  conditional (a branch belongs to the innermost loop holding it).
- The grid: Mosaic turns a kernel's grid into the outermost loop, whose induction value carries
  the comment `iteration index` (the pipeline's stages); it runs the grid's steps plus the
  software pipeline's first and last iterations (one or two more: 18 for a grid of 16 steps with
  input and output windows, 9 for a grid of 8 whose operands stay in HBM), so the grid's steps
  come from the caller (the traced grid), not from the listing. Its cycles per iteration are the
  kernel's static cycles per grid step; a kernel of one grid step has no such loop, and its
  whole listing is the step. The whole call is the bundles outside that loop plus the grid's
  steps times the cycles per step (`Kernel.call_cycles`).

`parse(text, generation)` returns a Kernel; `python tests/bench/bundles.py FILE --generation G`
prints the loop tree of a listing.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import re

# Branch delay slots per generation: the bundles a taken branch still issues after itself.
# Measured on dumps of libtpu 0.10.2 (nested fori_loops and the grid loop of each generation):
# the same count of bundles follows every back branch before the loop's exit code.
DELAY_SLOTS = {"tpu-v7x": 6, "tpu-v6e": 4, "tpu-v5e": 4, "tpu-v5p": 4, "tpu-v4": 1}

MAX_SIMULATED_TRIPS = 1 << 24

_HEAD = re.compile(r"^\s*(0x[0-9a-fA-F]+|\d+)\s+([A-Z]{2})?\s*:\s*(>*)\s*\{")
_START = re.compile(r"Start(?:/End empty)? region (\d+)\b")
_BRANCH = re.compile(r"sbr\.rel\s+(?:\((!?)(%\w+)\)\s+)?target\s*=\s*\$region(\d+)")
_DEF = re.compile(r"(%\w+)\s*=\s*([a-z][\w.]*)\s*(.*)", re.S)
_GUARD = re.compile(r"^\((!?%\w+)\)\s*,?\s*")
_INT = re.compile(r"^-?\d+$")


@dataclasses.dataclass
class Bundle:
    index: int
    marker: str     # "LB", "PF", ... or ""
    text: str       # the bundle with its comments (regions, `iteration index`)
    code: str       # the instructions, comments removed


@dataclasses.dataclass
class Loop:
    start: int      # index of the LB bundle
    branch: int     # index of the back branch's bundle
    end: int        # last bundle of the body (the branch's last delay slot)
    trips: int | None  # None: unknown until run time (counted as one iteration)
    grid: bool = False  # the loop Mosaic makes of the grid
    children: list[Loop] = dataclasses.field(default_factory=list)
    guarded: int = 0  # bundles of the body a forward branch issued in the body (not in an
    #                   inner loop) may skip

    @property
    def bundles(self) -> int:
        return self.end - self.start + 1

    @property
    def own_bundles(self) -> int:
        return self.bundles - sum(c.bundles for c in self.children)

    @property
    def exact(self) -> bool:
        """Every trip count inside this loop is known (its own is `trips`)."""
        return all(c.trips is not None and c.exact for c in self.children)

    def cycles_per_iteration(self) -> int:
        return self.own_bundles + sum(c.cycles() for c in self.children)

    def cycles(self) -> int:
        return (1 if self.trips is None else self.trips) * self.cycles_per_iteration()

    def walk(self, depth: int = 1):
        yield depth, self
        for child in self.children:
            yield from child.walk(depth + 1)


@dataclasses.dataclass
class Kernel:
    name: str
    bundles: int                # every bundle of the listing
    loops: list[Loop]           # the outermost loops
    guarded: int = 0            # bundles a forward branch outside every loop may skip

    @property
    def grid_loop(self) -> Loop | None:
        return next((loop for loop in self.loops if loop.grid), None)

    @property
    def outside(self) -> int:
        """Bundles in no loop."""
        return self.bundles - sum(loop.bundles for loop in self.loops)

    @property
    def exact(self) -> bool:
        return all(loop.trips is not None and loop.exact for loop in self.loops if not loop.grid) and \
            (self.grid_loop is None or self.grid_loop.exact)

    def cycles(self) -> int:
        """Static cycles of the listing as it stands (the grid loop at its own trip count)."""
        return self.outside + sum(loop.cycles() for loop in self.loops)

    def step_cycles(self) -> int:
        """Static cycles of one grid step: the grid loop's iteration, or the whole listing."""
        grid = self.grid_loop
        return grid.cycles_per_iteration() if grid else self.cycles()

    def call_cycles(self, grid_steps: int) -> int:
        """Static cycles of the whole call of `grid_steps` grid steps: the bundles outside the
        grid loop (and the other outermost loops) plus the steps times the cycles per step."""
        grid = self.grid_loop
        if grid is None:
            return self.cycles()
        rest = self.outside + sum(loop.cycles() for loop in self.loops if loop is not grid)
        return rest + grid_steps * grid.cycles_per_iteration()


# ---------------------------------------------------------------------------------------------
# reading the listing


def strip_comments(text: str) -> str:
    """`text` without its `/* ... */` comments, which nest in the listings (a bounds check's
    comment quotes a DMA with its own `/*hbm=*/` comments)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        pair = text[i:i + 2]
        if pair == "/*":
            depth, i = depth + 1, i + 2
        elif pair == "*/" and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def bundles_of(text: str) -> list[Bundle]:
    heads: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        head = _HEAD.match(line)
        if head:
            heads.append((head.group(2) or "", [line]))
        elif heads:
            heads[-1][1].append(line)
    return [Bundle(i, marker, "\n".join(lines), strip_comments("\n".join(lines)))
            for i, (marker, lines) in enumerate(heads)]


def _instructions(code: str):
    body = code[code.find("{") + 1:code.rfind("}")]
    for piece in body.split(";;"):
        found = _DEF.match(piece.strip())
        if found:
            yield found.group(1), found.group(2), found.group(3).strip()


def _operands(args: str) -> tuple[str | None, list[str]]:
    guard = _GUARD.match(args)
    rest = args[guard.end():] if guard else args
    return (guard.group(1) if guard else None), [a.strip() for a in rest.split(",") if a.strip()]


def _s32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


_COMPARE = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
            "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}


class _Values:
    """The listing's definitions (SSA names are unique), for trip counts."""

    def __init__(self, bundles: list[Bundle]):
        self.defs: dict[str, tuple[str, str | None, list[str]]] = {}
        self.spills: dict[str, set[str]] = {}  # spill slot -> the values stored to it
        for bundle in bundles:
            for name, opcode, args in _instructions(bundle.code):
                guard, operands = _operands(args)
                self.defs.setdefault(name, (opcode, guard, operands))
                store = re.fullmatch(r"(\[smem:\[#allocation\d+_spill\]\])\s+(%\w+)", args) if opcode == "sst" else None
                if store:
                    self.spills.setdefault(store.group(1), set()).add(store.group(2))

    def constant(self, operand: str) -> int | None:
        if _INT.match(operand):
            return _s32(int(operand))
        opcode, guard, operands = self.defs.get(operand, ("", None, []))
        if opcode == "smov" and len(operands) == 1 and _INT.match(operands[0]):
            return _s32(int(operands[0]))
        return None

    def induction(self, operand: str) -> tuple[int, int, bool] | None:
        """(initial value, step, whether `operand` is the incremented value) of an induction
        value: a sphi of a constant and `sadd.s32 step, <the phi>`."""
        opcode, _, operands = self.defs.get(operand, ("", None, []))
        if opcode == "sadd.s32" and len(operands) == 2:
            for phi, step in (operands, operands[::-1]):
                found = self._phi(self.copied(phi), operand)
                if found is not None and self.constant(step) is not None:
                    return found, self.constant(step), True
        if opcode == "sphi" and len(operands) == 2:
            back = self.copied(operands[1])
            _, _, increment = self.defs.get(back, ("", None, []))
            if self.defs.get(back, ("",))[0] == "sadd.s32" and operand in increment:
                step = next((x for x in increment if x != operand), None)
                init = self.constant(operands[0])
                if init is not None and step is not None and self.constant(step) is not None:
                    return init, self.constant(step), False
        return None

    def _phi(self, phi: str, increment: str) -> int | None:
        opcode, _, operands = self.defs.get(phi, ("", None, []))
        if opcode == "sphi" and len(operands) == 2 and self.copied(operands[1]) == increment:
            return self.constant(operands[0])
        return None

    def copied(self, name: str) -> str:
        """The value `name` copies through unconditional `smov %x` and reloads `sld` of a
        spill slot stored once (register allocation's copies around the phi)."""
        seen = set()
        while name not in seen:
            seen.add(name)
            opcode, guard, operands = self.defs.get(name, ("", None, []))
            if guard or len(operands) != 1:
                break
            if opcode == "smov" and operands[0].startswith("%"):
                name = operands[0]
            elif opcode == "sld" and len(self.spills.get(operands[0], ())) == 1:
                name = next(iter(self.spills[operands[0]]))
            else:
                break
        return name

    def trips(self, negated: bool, predicate: str) -> int | None:
        """Iterations of a loop whose back branch is taken on `predicate` (or its negation)."""
        opcode, _, operands = self.defs.get(predicate, ("", None, []))
        compare = re.fullmatch(r"scmp\.(eq|ne|lt|le|gt|ge)\.[su]32(?:\.totalorder)?", opcode)
        if not compare or len(operands) != 2:
            return None
        test = _COMPARE[compare.group(1)]
        for side in (0, 1):
            induction = self.induction(operands[side])
            bound = self.constant(operands[1 - side])
            if induction is None or bound is None:
                continue
            value, step, incremented = induction
            if step == 0:
                return None
            for trips in range(1, MAX_SIMULATED_TRIPS + 1):
                tested = value + step if incremented else value
                holds = test(tested, bound) if side == 0 else test(bound, tested)
                if holds == negated:  # the back branch is not taken: the loop exits
                    return trips
                value += step
            return None
        return None


def parse(text: str, generation: str | None = None, *, delay_slots: int | None = None,
          name: str = "") -> Kernel:
    """The loop tree and static cycles of one `final_bundles` listing."""
    if delay_slots is None:
        if generation not in DELAY_SLOTS:
            raise ValueError(f"no branch delay slot count for {generation!r}: one of {sorted(DELAY_SLOTS)}")
        delay_slots = DELAY_SLOTS[generation]
    bundles = bundles_of(text)
    region_start: dict[int, int] = {}
    for bundle in bundles:
        for region in _START.findall(bundle.text):
            region_start.setdefault(int(region), bundle.index)
    values = _Values(bundles)
    last = len(bundles) - 1
    loops: list[Loop] = []
    forward: list[tuple[int, int, int]] = []  # (branch bundle, first skippable bundle, target)
    for bundle in bundles:
        for negated, predicate, region in _BRANCH.findall(bundle.code):
            target = region_start.get(int(region))
            if target is None:
                continue
            if target <= bundle.index and bundles[target].marker == "LB":
                trips = values.trips(negated == "!", predicate) if predicate else None
                grid = "iteration index" in bundles[target].text
                loops.append(Loop(target, bundle.index, min(last, bundle.index + delay_slots), trips, grid))
            elif target > bundle.index + delay_slots + 1:
                forward.append((bundle.index, bundle.index + delay_slots + 1, target))
    outermost = _nest(loops)
    kernel = Kernel(name, len(bundles), outermost)
    # A forward branch belongs to the innermost loop holding it (or to the kernel); what it may
    # skip is counted there, within that loop's extent.
    owner = {}
    for loop in sorted(loops, key=lambda l: l.bundles, reverse=True):
        owner.update((i, loop) for i in range(loop.start, loop.end + 1))
    skipped: dict[int, set[int]] = {}
    for at, first, target in forward:
        loop = owner.get(at)
        low, high = (loop.start, loop.end) if loop else (0, last)
        skipped.setdefault(id(loop), set()).update(range(max(first, low), min(target, high + 1)))
    for loop in loops:
        loop.guarded = len(skipped.get(id(loop), ()))
    kernel.guarded = len(skipped.get(id(None), ()))
    grids = [loop for loop in outermost if loop.grid]
    for loop in grids[1:]:  # one grid per kernel: a second marked loop is an ordinary one
        loop.grid = False
    return kernel


def _nest(loops: list[Loop]) -> list[Loop]:
    """Arrange loops by containment; returns the outermost ones."""
    outermost: list[Loop] = []
    stack: list[Loop] = []
    for loop in sorted(loops, key=lambda l: (l.start, -l.end)):
        while stack and not (stack[-1].start <= loop.start and loop.end <= stack[-1].end):
            stack.pop()
        (stack[-1].children if stack else outermost).append(loop)
        stack.append(loop)
    return outermost


def kernel_name(filename: str) -> str | None:
    """The HLO name in `<id>-<name>-<pass number>-final_bundles.txt` (None for other files)."""
    found = re.fullmatch(r"\d+-(.+)-\d+-final_bundles\.txt", filename)
    return found.group(1) if found else None


def describe(kernel: Kernel) -> str:
    lines = [f"{kernel.name or 'kernel'}: {kernel.bundles} bundles, {kernel.outside} outside loops"
             f" ({kernel.guarded} behind forward branches)"]
    for loop in kernel.loops:
        for depth, inner in loop.walk():
            trips = "?" if inner.trips is None else str(inner.trips)
            lines.append(f"{'  ' * depth}loop {inner.start:#x}-{inner.end:#x}{' (grid)' if inner.grid else ''}:"
                         f" {inner.bundles} bundles ({inner.own_bundles} own, {inner.guarded} behind its branches),"
                         f" trips {trips}, {inner.cycles_per_iteration()} cycles per iteration")
    lines.append(f"per grid step {kernel.step_cycles()} cycles; the listing as it runs {kernel.cycles()} cycles"
                 f"{'' if kernel.exact else ' (a trip count is unknown: per iteration of that loop)'}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Loop tree and static cycles of a final_bundles listing.")
    parser.add_argument("listing")
    parser.add_argument("--generation", required=True, choices=sorted(DELAY_SLOTS))
    args = parser.parse_args(argv)
    with open(args.listing) as f:
        text = f.read()
    import os

    print(describe(parse(text, args.generation, name=kernel_name(os.path.basename(args.listing)) or "")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
