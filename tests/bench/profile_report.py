"""The kernel profile's tables, ratios and goal lines (text, Markdown or JSON).

Ratios compare the work per unit of MXU work: a `grid` step multiplies one block pair, an
`unroll` step a whole row of them, so a row's VPU (EUP) elements are scaled by the
hand-written kernel's MXU flops per step over the row's before dividing by the hand-written
kernel's VPU (EUP) elements per step. Kernels without MXU work compare per step.
"""

from __future__ import annotations

import dataclasses
import math

from profile_cases import HAND_WRITTEN, Case

# Issue 9's goals: VPU and EUP work per step against the hand-written kernel.
GOAL_DIVIDES = 1.0
GOAL_PARTIAL = 1.1

# Issue 9's quoted figures (M elements per step), recounted with its rule as a check of the
# counter: every vector op by its result's elements (so a reduction by its result), shape casts
# and concatenations included. JAX's must match; helionc's were measured on the compiler of
# the day and move as it changes. (hand-written name or (sample, strategy), metric) -> value
ISSUE9_FIGURES = {
    ("matmul", "vpu"): 1.05,
    (("matmul", "grid"), "vpu"): 8.9,
    (("matmul", "unroll"), "vpu"): 8.5,
    (("matmul", "fori_loop"), "vpu"): 10.1,
    (("matmul", "emit_pipeline"), "vpu"): 10.1,
    ("flash", "vpu"): 2.75,
    ("flash", "eup"): 0.39,
    (("attention", "grid"), "vpu"): 4.0,
    (("attention", "grid"), "eup"): 0.33,
}

COLUMNS = ("sample", "loops", "shape", "grid", "MXU GF", "VPU", "EUP", "loads", "relayout", "VPU x", "EUP x", "notes")


@dataclasses.dataclass
class Row:
    sample: str
    loops: str
    shape: str  # "divides", "partial" or "hand-written"
    call: str
    blocks: tuple[int, ...]
    launch: object | None  # profile_unit.Launch
    launch_index: int = 0
    reference: object | None = None  # the hand-written Launch compared with
    error: str | None = None

    def per_step(self, metric: str) -> float:
        """The static count of one step; for a kernel with loops whose trip counts depend on the
        program ids, the mean over its evaluated grid when there is one."""
        if not self.launch:
            return 0
        if self.launch.step.dynamic_loops and self.launch.total and self.launch.steps:
            return self.launch.total[metric] / self.launch.steps
        return self.launch.step[metric]

    def normalised(self, metric: str) -> float:
        """`metric` per step scaled to the reference's MXU flops per step (see the docstring)."""
        value = self.per_step(metric)
        mine, theirs = self.per_step("mxu_flops"), self.reference.step["mxu_flops"] if self.reference else 0
        return value * theirs / mine if mine and theirs else value

    def ratio(self, metric: str) -> float | None:
        if not self.reference or not self.launch:
            return None
        theirs = self.reference.step[metric]
        return self.normalised(metric) / theirs if theirs else None


@dataclasses.dataclass
class Report:
    rows: list[Row]
    goals: list[tuple[bool, str]]
    causal: list[tuple[bool, str]]
    checks: list[str]
    errors: list[str]


def build(units: list[dict], hand: dict) -> Report:
    rows, errors = [], []
    hand_launch = {name: (r.launches[0] if r.launches else None) for name, r in hand.items()}
    for name, result in hand.items():
        if result.error:
            errors.append(f"{HAND_WRITTEN[name][0]}: {result.error}")
    shown = set()
    for unit in units:
        case: Case = unit["case"]
        result = unit["result"]
        if case.hand_written and case.hand_written not in shown and hand_launch.get(case.hand_written):
            # the hand-written kernel just above the rows compared with it
            shown.add(case.hand_written)
            rows.append(Row(HAND_WRITTEN[case.hand_written][0], "grid", "hand-written", "", (),
                            hand_launch[case.hand_written]))
        loops = "+".join(unit["loops"]) or "-"
        reference = hand_launch.get(case.hand_written) if case.hand_written else None
        if result.error:
            errors.append(f"{case.sample} {loops} {unit['shape']}: {result.error}")
            rows.append(Row(case.sample, loops, unit["shape"], unit["call"], case.blocks, None, error=result.error))
            continue
        for i, launch in enumerate(result.launches):
            rows.append(Row(case.sample, loops, unit["shape"], unit["call"], case.blocks, launch, i, reference))
    return Report(rows, _goals(rows), _causal(units, hand_launch), _checks(rows, hand_launch), errors)


def _goals(rows: list[Row]) -> list[tuple[bool, str]]:
    goals = []
    for row in rows:
        if row.reference is None or row.launch is None:
            continue
        bound = GOAL_DIVIDES if row.shape == "divides" else GOAL_PARTIAL
        ratios = {m: row.ratio(m) for m in ("vpu", "eup")}
        ok = all(r is None or r <= bound + 1e-9 for r in ratios.values())
        shown = ", ".join(f"{m.upper()} {_ratio(r)}" for m, r in ratios.items())
        goals.append((ok, f"{row.sample} {row.loops} {row.shape}: {shown} (goal <= {bound:.1f}x)"))
    return goals


def _causal(units: list[dict], hand_launch: dict) -> list[tuple[bool, str]]:
    """Key-block products run by causal kernels: their MXU work over the whole grid against the
    non-causal hand-written kernel's at the same shape and blocks."""
    full = hand_launch.get("flash")
    if not full or not full.total:
        return []
    lines = []
    pairs = next((u["case"].block_pairs for u in units if u["case"].count_blocks), 0)
    blocks = math.isqrt(pairs)  # query blocks = key blocks per row and head
    goal = blocks * (blocks + 1) // 2  # on or below the diagonal
    candidates = [(HAND_WRITTEN["flash_causal"][0], hand_launch.get("flash_causal"))]
    candidates += [(f"{u['case'].sample} {'+'.join(u['loops'])}", _first(u["result"]))
                   for u in units if u.get("evaluate")]
    for label, launch in candidates:
        if not launch or not launch.total:
            lines.append((False, f"{label}: not counted"))
            continue
        fraction = launch.total["mxu_flops"] / full.total["mxu_flops"]
        run = fraction * pairs
        undecided = f", {launch.total.undecided} undecided branches" if launch.total.undecided else ""
        lines.append((abs(run - goal) < 0.5,
                      f"{label}: {run:.0f} of {pairs} key-block products ({fraction:.4f}x the non-causal MXU work; "
                      f"goal {goal}){undecided}"))
    return lines


def _checks(rows: list[Row], hand_launch: dict) -> list[str]:
    lines = []
    for (who, metric), quoted in ISSUE9_FIGURES.items():
        if isinstance(who, str):
            launch, label, scale = hand_launch.get(who), HAND_WRITTEN[who][0], 1.0
        else:
            row = next((r for r in rows if (r.sample, r.loops) == who and r.shape == "divides" and r.launch), None)
            if row is None:
                continue
            launch, label = row.launch, f"helionc {who[0]} {who[1]}"
            # per MXU work of the hand-written kernel, as the issue quotes unroll/fori_loop/...
            scale = row.normalised("mxu_flops") / row.per_step("mxu_flops") if row.per_step("mxu_flops") else 1.0
        if launch is None:
            continue
        value = issue9_rule(launch.step, metric) * scale / 1e6
        lines.append(f"{label} {metric.upper()}: {value:.2f} M by issue 9's rule (issue: {quoted} M); "
                     f"{launch.step[metric] * scale / 1e6:.2f} M by this counter's")
    return lines


def issue9_rule(counts, metric: str) -> float:
    """`metric` as issue 9 counted it (see ISSUE9_FIGURES)."""
    if metric != "vpu":
        return counts[metric]
    sources = sum(v for (m, op), v in counts.by_op.items() if m == "vpu" and "reduction" in op)
    return counts["vpu"] - sources + counts["reduced"] + counts["relayout"]


def _first(result):
    return result.launches[0] if result and result.launches else None


# ---------------------------------------------------------------------------------------------
# rendering


def _amount(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f}M"
    if value >= 1e3:
        return f"{value / 1e3:.1f}K"
    return f"{value:.0f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def _cells(row: Row) -> list[str]:
    if row.launch is None:
        return [row.sample, row.loops, row.shape, "", "", "", "", "", "", "", "", f"error: {row.error[:80]}"]
    notes = []
    if row.launch.step.dynamic_loops:
        notes.append("mean of the grid's steps (loop bounds vary per step)" if row.launch.total
                     else f"{row.launch.step.dynamic_loops} loop(s) of unknown trip count counted once")
    if row.launch_index:
        notes.append(f"launch {row.launch_index}")
    grid = "x".join(map(str, row.launch.grid)) or "1"
    return [row.sample, row.loops, row.shape, grid, f"{row.per_step('mxu_flops') / 1e9:.3f}",
            *(_amount(row.per_step(m)) for m in ("vpu", "eup", "loads", "relayout")),
            _ratio(row.ratio("vpu")), _ratio(row.ratio("eup")), "; ".join(notes)]


def _table(rows: list[list[str]], markdown: bool) -> str:
    header = list(COLUMNS)
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] * 3 + ["---:"] * 8 + ["---"]) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    lines = []
    for j, r in enumerate([header] + rows):
        lines.append("  ".join(c.ljust(w) if i < 3 or i == len(header) - 1 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _verdicts(title: str, items: list[tuple[bool, str]], markdown: bool) -> list[str]:
    if not items:
        return []
    bullet = "- " if markdown else "  "
    passed = sum(ok for ok, _ in items)
    out = [f"{title}: {passed} of {len(items)} pass"]
    out += [f"{bullet}{'PASS' if ok else 'FAIL'} {text}" for ok, text in items]
    return out + [""]


def render(report: Report, markdown: bool = False, lines: int = 0) -> str:
    compared = [r for r in report.rows if r.reference is not None or r.shape == "hand-written"]
    others = [r for r in report.rows if r not in compared]
    out = ["Per grid step, counted in the Mosaic MLIR lowered for TPU7x: MXU GFLOP, VPU / EUP / relayout elements, "
           "VMEM vector loads (elements); `VPU x`, `EUP x`: against the hand-written kernel per unit of its MXU work.", ""]
    if compared:
        out += ["Kernels with a hand-written counterpart:", "", _table([_cells(r) for r in compared], markdown), ""]
    if others:
        out += ["Every other sample:", "", _table([_cells(r) for r in others], markdown), ""]
    out += _verdicts(f"Goals (VPU and EUP per step <= {GOAL_DIVIDES:.1f}x where the blocks divide, "
                     f"<= {GOAL_PARTIAL:.1f}x where they do not)", report.goals, markdown)
    out += _verdicts("Causal attention: key-block products run at S=4096 with 512 blocks (by evaluating the "
                     "kernels' control flow at every grid step)", report.causal, markdown)
    if report.checks:
        bullet = "- " if markdown else "  "
        out += ["Counter check against issue 9's figures:"] + [bullet + c for c in report.checks] + [""]
    calls = {}
    for row in report.rows:
        if row.call:
            calls.setdefault((row.sample, row.blocks), {})[row.shape] = row.call
    if calls:
        bullet = "- " if markdown else "  "
        out += ["Blocks and shapes:"]
        out += [f"{bullet}{sample} {list(blocks)}: divides {c.get('divides', '?')}; partial {c.get('partial', '?')}"
                for (sample, blocks), c in calls.items()]
        out += [""]
    if lines:
        out += _top_lines(compared, lines)
    if report.errors:
        out += ["Errors:"] + [f"  {e}" for e in report.errors]
    return "\n".join(out).rstrip() + "\n"


def _top_lines(rows: list[Row], n: int) -> list[str]:
    out = []
    for row in rows:
        if row.launch is None:
            continue
        work = {}
        for (metric, where), value in row.launch.step.by_line.items():
            if metric in ("vpu", "eup"):
                work[where] = work.get(where, 0) + value
        out.append(f"{row.sample} {row.loops} {row.shape}: VPU+EUP elements per step by source line")
        for where, value in sorted(work.items(), key=lambda kv: -kv[1])[:n]:
            out.append(f"  {_amount(value):>8}  {where}  {row.launch.sources.get(where, '')[:110]}")
        out.append("")
    return out


def as_json(report: Report) -> dict:
    def launch_json(launch):
        if launch is None:
            return None
        step = launch.step
        data = {
            "name": launch.name, "grid": list(launch.grid), "per_step": dict(step.totals),
            "per_step_by_op": {f"{m} {op}": v for (m, op), v in sorted(step.by_op.items())},
            "per_step_by_line": {f"{m} {where}": v for (m, where), v in sorted(step.by_line.items())},
            "sources": launch.sources, "dynamic_loops": step.dynamic_loops,
        }
        if launch.total:
            data.update(executed=dict(launch.total.totals), executed_steps=launch.steps,
                        undecided=launch.total.undecided)
        return data

    return {
        "rows": [dict(sample=r.sample, loops=r.loops, shape=r.shape, call=r.call, blocks=list(r.blocks),
                      launch=launch_json(r.launch), vpu_ratio=r.ratio("vpu"), eup_ratio=r.ratio("eup"),
                      error=r.error) for r in report.rows],
        "goals": [dict(ok=ok, text=t) for ok, t in report.goals],
        "causal": [dict(ok=ok, text=t) for ok, t in report.causal],
        "checks": report.checks,
        "errors": report.errors,
    }
