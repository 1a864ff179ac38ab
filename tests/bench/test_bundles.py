"""The final-bundles parser (bundles.py) on hand-made listings in the TPU compiler's format:
straight-line code, one loop, nested loops, a trip count known only at run time, the grid loop,
forward branches, multi-line bundles and nested comments."""

from __future__ import annotations

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bundles  # noqa: E402

KEY = """= control target key start
LH: loop header
LB: loop body
LE: loop exit
PB: predicated region body
PF: predicated region fallthrough
CT: control target
= control target key end

"""


def listing(*rows: str) -> str:
    """Bundles `[marker:] body` numbered as the compiler numbers them (0, 0x1, 0x2, ...)."""
    lines = []
    for i, row in enumerate(rows):
        marker, _, body = row.rpartition("|")
        address = "0" if i == 0 else hex(i)
        lines.append(f"{address:>6} {marker or '  '}: {body}")
    return KEY + "\n".join(lines) + "\n"


def test_straight_line():
    text = listing(" { %6 = vsyncpa [#allocation3], 0 }", " { %v1_v0 = vmov 0.0 }", " {}",
                   " { %8 = vsyncpa [#allocation3], 1 } /* exit bundle */")
    kernel = bundles.parse(text, delay_slots=2)
    assert kernel.loops == [] and kernel.bundles == 4 and kernel.outside == 4
    assert kernel.step_cycles() == kernel.call_cycles(1) == 4 and kernel.exact


def one_loop(limit: str = "5", init: str = "0", step: str = "1", compare: str = "ge", negated: bool = True) -> str:
    """A loop of bundles 2..5 (branch at 4, one delay slot at 5) over %s10 = init, init+step, ..."""
    mark = "!" if negated else ""
    return listing(
        " { %s5_s1 = smov " + init + " /* copy for cssa */ }",
        " { %v2_v0 = vmov 0.0 }",
        "LB| > { %s11_s1 = sadd.s32 " + step + ", %s10_s1  ;;  %s10_s1 = sphi %s5_s1, %s11_s1 /* phi copy */ }"
        " /* Start region 7 */",
        " > { %p12_p0 = scmp." + compare + ".s32.totalorder %s11_s1, " + limit + " /* loop exit test */ }",
        "  { %13 = sbr.rel (" + mark + "%p12_p0) target = $region7 }",
        " > { %v3_v0 = vadd.f32 %v2_v0, %v2_v0 } /* End region 7 */",
        " { %9 = vsyncpa [#allocation3], 1 }")


def test_one_loop():
    kernel = bundles.parse(one_loop(), delay_slots=1)
    (loop,) = kernel.loops
    # the body runs from the LB bundle through the branch's delay slot
    assert (loop.start, loop.branch, loop.end, loop.bundles) == (2, 4, 5, 4)
    assert loop.trips == 5 and not loop.grid and loop.children == []
    assert kernel.outside == 3 and kernel.cycles() == 3 + 5 * 4
    # no grid loop: the whole listing is one step
    assert kernel.step_cycles() == kernel.call_cycles(1) == 23


@pytest.mark.parametrize("limit, init, step, compare, negated, trips", [
    ("5", "0", "1", "ge", True, 5),             # exit when i+1 >= 5
    ("8", "0", "2", "ge", True, 4),
    ("4294967295", "3", "4294967295", "le", True, 4),   # counts down by -1 from 3 to -1
    ("6", "0", "1", "lt", False, 6),            # branch back while i+1 < 6
    ("1", "0", "1", "ge", True, 1),
])
def test_trip_counts(limit, init, step, compare, negated, trips):
    (loop,) = bundles.parse(one_loop(limit, init, step, compare, negated), delay_slots=1).loops
    assert loop.trips == trips


def test_delay_slots_by_generation():
    text = one_loop()
    assert bundles.parse(text, "tpu-v4").loops[0].bundles == 4  # one delay slot
    with pytest.raises(ValueError):
        bundles.parse(text, "tpu-v9")


def test_unknown_trip_count():
    """A bound read from a scalar operand: the loop counts one iteration, and the figures are
    marked as not exact."""
    text = listing(
        " { %s20_s0 = inlined_call_operand.smem [shape: s32[1], index: 0] /* operand 0 */  ;;  %s5_s1 = smov 0 }",
        "LB| > { %s11_s1 = sadd.s32 1, %s10_s1  ;;  %s10_s1 = sphi %s5_s1, %s11_s1 } /* Start region 3 */",
        " > { %p12_p0 = scmp.ge.s32.totalorder %s11_s1, %s20_s0 }",
        " > { %v1_v0 = vmov 0.0 }",
        "  { %13 = sbr.rel (!%p12_p0) target = $region3 }",
        "  {}",
        " { %9 = vsyncpa [#allocation3], 1 }")
    kernel = bundles.parse(text, delay_slots=1)
    (loop,) = kernel.loops
    assert loop.trips is None and loop.bundles == 5
    assert not kernel.exact and kernel.cycles() == 2 + 5


def nested() -> str:
    """The grid loop (7 steps + 2: limit 9) around a loop of 3 around a loop of 5, two delay
    slots, a forward branch over the nest (the pipeline's first and last iterations), and a DMA
    whose comment spans lines and nests."""
    return listing(
        " { %s1_s6 = smov 0 }",
        "LB| > { %s12_s6 = sadd.s32 1, %s2_s6  ;;  %s2_s6 = sphi %s1_s6, %s12_s6 /* phi copy :: iteration index,"
        " stage = 0 */ } /* Start region 85 */",
        " > { %p74_p2 = scmp.eq.s32.totalorder %s2_s6, 0  ;;  %s30_s8 = smov 0 }",
        " > { %77 = sbr.rel (%p74_p2) target = $region24 }",
        "  {}",
        "  {}",
        "LB| >> { %s31_s8 = sadd.s32 1, %s32_s8  ;;  %s32_s8 = sphi %s30_s8, %s31_s8  ;;  %s40_s9 = smov 0 }"
        " /* Start region 74 */",
        "LB| >>> { %s41_s9 = sadd.s32 1, %s42_s9  ;;  %s42_s9 = sphi %s40_s9, %s41_s9 } /* Start region 63 */",
        " >>> { %p92_p3 = scmp.ge.s32.totalorder %s41_s9, 5 /* loop exit test */ }",
        " >> { %94 = sbr.rel (!%p92_p3) target = $region63 }",
        "  {}",
        " >>> { %v1_v1 = vmov 0.0 } /* End region 63 */",
        " > { %p85_p4 = scmp.ge.s32.totalorder (%p92_p3), %s31_s8, 3 /* loop exit test */ }",
        " > { %87 = sbr.rel (!%p85_p4) target = $region74 }",
        " >> { %v2_v1 = vmov 0.0 }",
        " > { %166 = dma.vmem_to_hbm [thread:$0]  (%p74_p2), /*vmem=*/%s113_s16, /*size_in_granules=*/128 /* \n"
        "base_bounds: (1, 1)\niteration_bounds: (7)\nsbr.rel (%p1) target = $region85 */ }",
        "PF| > { %p9_p4 = scmp.ge.s32.totalorder %s12_s6, 9 /* loop exit test */ } /* Start/End empty region 24 */",
        "  { %11 = sbr.rel (!%p9_p4) target = $region85 }",
        "  {}",
        "  {} /* End region 84 */",
        "  { %125 = vsyncpa [#allocation3], 1 }")


def test_nested_loops_and_grid():
    kernel = bundles.parse(nested(), delay_slots=2)
    (grid,) = kernel.loops
    assert grid.grid and grid.trips == 9 and (grid.start, grid.end) == (1, 19)
    (middle,) = grid.children
    assert not middle.grid and middle.trips == 3 and (middle.start, middle.end) == (6, 15)
    (inner,) = middle.children
    assert inner.trips == 5 and (inner.start, inner.end) == (7, 11) and inner.bundles == 5
    assert middle.own_bundles == 10 - 5 and middle.cycles_per_iteration() == 5 + 5 * 5
    assert grid.own_bundles == 19 - 10 and grid.cycles_per_iteration() == 9 + 3 * 30
    assert kernel.step_cycles() == 99
    assert kernel.outside == 2 and kernel.call_cycles(7) == 2 + 7 * 99 and kernel.call_cycles(4) == 2 + 4 * 99
    assert kernel.cycles() == 2 + 9 * 99 and kernel.exact
    # the branch at 3 (two delay slots) may skip 6..15 of the grid loop's body; the text inside
    # the DMA's comment is no instruction
    assert grid.guarded == 10 and middle.guarded == 0 and kernel.guarded == 0


def test_multiline_bundle_is_one_bundle():
    kernel = bundles.parse(nested(), delay_slots=2)
    assert kernel.bundles == 21


def test_strip_nested_comments():
    assert bundles.strip_comments("a /* b /*c*/ d */ e /* f */") == "a  e "


def test_kernel_name():
    assert bundles.kernel_name("1796601393986292580-flash_attention.1-71-final_bundles.txt") == "flash_attention.1"
    assert bundles.kernel_name("1796-matmul.1-71-schedule-analysis_final_bundles.txt") is None


def test_induction_through_copies_and_spills():
    """Register allocation may copy the increment (`smov %x`) before the phi, or spill the phi
    to SMEM and reload it before the increment: the trip count is still found."""
    text = listing(
        " { %s5_s1 = smov 0 }",
        "LB| > { %s10_s1 = sphi %s5_s1, %s14_s1  ;;  %30 = sst [smem:[#allocation9_spill]] %s10_s1 } /* Start region 7 */",
        " > { %s13_s4 = sld [smem:[#allocation9_spill]] }",
        " > { %s11_s2 = sadd.s32 1, %s13_s4 }",
        " > { %p12_p0 = scmp.ge.s32.totalorder %s11_s2, 9 /* loop exit test */  ;;  %s14_s1 = smov %s11_s2 }",
        "  { %13 = sbr.rel (!%p12_p0) target = $region7 }",
        "  {}",
        " { %9 = vsyncpa [#allocation3], 1 }")
    (loop,) = bundles.parse(text, delay_slots=1).loops
    assert loop.trips == 9
