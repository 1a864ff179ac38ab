"""The Mosaic MLIR counter on a hand-made module: every figure is worked out by hand below.

Standard library and pytest only (no jax): `python -m pytest tests/bench/test_mosaic_counts.py`.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from mosaic_counts import op_cost, per_step  # noqa: E402
from mosaic_eval import executed  # noqa: E402
from mosaic_mlir import parse_module, split_modules  # noqa: E402

# A grid of (2, 3) steps. Per step: a 8x128 @ 128x256 product in a loop of 4 (static), a
# branch on the first program id with a heavier `then`, and a loop whose trip count is the
# second program id (dynamic for the static count).
KERNEL = """\
#loc = loc(unknown)
module attributes {stable_mosaic.version = 11 : i64} {
  func.func @kernel(%arg0: i32 loc(unknown), %arg1: i32 loc(unknown), %arg2: memref<8x128xbf16, #tpu.memory_space<vmem>> loc(unknown), %arg3: memref<128x256xbf16, #tpu.memory_space<vmem>> loc(unknown), %arg4: memref<8x256xf32, #tpu.memory_space<vmem>> loc(unknown)) attributes {dimension_semantics = [#tpu.dimension_semantics<parallel>, #tpu.dimension_semantics<arbitrary>], iteration_bounds = array<i64: 2, 3>, scalar_prefetch = 0 : i64, scratch_operands = 0 : i64, tpu.core_type = #tpu.core_type<tc>, window_params = [{transform_indices = @transform_0, window_bounds = array<i64: 8, 128>}]} {
    %cst = arith.constant dense<0.000000e+00> : vector<8x256xf32> loc(#loc)
    %cst_0 = arith.constant dense<1.000000e+00> : vector<8x256xf32> loc(#loc)
    %c0 = arith.constant 0 : index loc(#loc)
    %c0_i32 = arith.constant 0 : i32 loc(#loc)
    %c1_i32 = arith.constant 1 : i32 loc(#loc)
    %c4_i32 = arith.constant 4 : i32 loc(#loc)
    %0 = vector.load %arg2[%c0, %c0] : memref<8x128xbf16, #tpu.memory_space<vmem>>, vector<8x128xbf16> loc(#loc3)
    %1 = scf.for %arg5 = %c0_i32 to %c4_i32 step %c1_i32 iter_args(%arg6 = %cst) -> (vector<8x256xf32>)  : i32 {
      %2 = vector.load %arg3[%c0, %c0] : memref<128x256xbf16, #tpu.memory_space<vmem>>, vector<128x256xbf16> loc(#loc4)
      %3 = tpu.matmul %0, %2, %cst {dimension_numbers = #tpu.dot_dimension_numbers<[1], [0], [0], [1], [0, 0, 1, 1], [], []>} : vector<8x128xbf16>, vector<128x256xbf16>, vector<8x256xf32> -> vector<8x256xf32> loc(#loc4)
      %4 = arith.addf %arg6, %3 : vector<8x256xf32> loc(#loc4)
      scf.yield %4 : vector<8x256xf32> loc(#loc)
    } loc(#loc)
    %5 = arith.cmpi eq, %arg0, %c0_i32 : i32 loc(#loc)
    %6 = scf.if %5 -> (vector<8x256xf32>) {
      %7 = math.exp %1 : vector<8x256xf32> loc(#loc5)
      %8 = arith.divf %cst_0, %7 : vector<8x256xf32> loc(#loc5)
      scf.yield %8 : vector<8x256xf32> loc(#loc)
    } else {
      %9 = arith.mulf %1, %1 : vector<8x256xf32> loc(#loc5)
      scf.yield %9 : vector<8x256xf32> loc(#loc)
    } loc(#loc)
    %10 = vector.multi_reduction <add>, %6, %cst [1] : vector<8x256xf32> to vector<8xf32> loc(#loc5)
    %11 = vector.shape_cast %10 : vector<8xf32> to vector<8x1xf32> loc(#loc5)
    %12 = vector.broadcast %11 : vector<8x1xf32> to vector<8x256xf32> loc(#loc5)
    %13 = tpu.iota {dimensions = array<i32: 1>} : vector<8x256xi32> loc(#loc5)
    %14 = arith.sitofp %13 : vector<8x256xi32> to vector<8x256xf32> loc(#loc5)
    %15 = arith.select %5, %12, %14 : vector<8x256xf32> loc(#loc5)
    %16 = scf.for %arg7 = %c0_i32 to %arg1 step %c1_i32 iter_args(%arg8 = %15) -> (vector<8x256xf32>)  : i32 {
      %17 = arith.addf %arg8, %cst_0 : vector<8x256xf32> loc(#loc5)
      scf.yield %17 : vector<8x256xf32> loc(#loc)
    } loc(#loc)
    tpu.vector_store %arg4[%c0, %c0], %16 {strides = array<i32>} : memref<8x256xf32, #tpu.memory_space<vmem>>, vector<8x256xf32>,  loc(#loc5)
    return loc(#loc)
  } loc(#loc)
  func.func @transform_0(%arg0: i32 loc(unknown), %arg1: i32 loc(unknown)) -> (i32, i32) {
    %c0_i32 = arith.constant 0 : i32 loc(#loc)
    return %arg0, %c0_i32 : i32, i32 loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("/tmp/kernel_pallas.py":10:4)
#loc2 = loc("/jax/site-packages/jax/_src/numpy/lax_numpy.py":99:1)
#loc3 = loc(callsite(#loc1 at #loc2))
#loc4 = loc(callsite(#loc2 at "/tmp/kernel_pallas.py":12:8))
#loc5 = loc("_kernel"("/tmp/kernel_pallas.py":20:4))
"""

V = 8 * 256  # elements of one 8x256 vector
PRODUCT = 2 * 8 * 256 * 128  # flops of one 8x128 @ 128x256


def kernel():
    module = parse_module(KERNEL)
    return module, module.kernel()


def test_parse_finds_kernel_grid_and_arguments():
    module, func = kernel()
    assert [f.name for f in module.funcs] == ["kernel", "transform_0"]
    assert func.name == "kernel"
    assert func.iteration_bounds() == (2, 3)
    assert func.arguments() == ["%arg0", "%arg1", "%arg2", "%arg3", "%arg4"]
    loops = [op for op in func.body if op.name == "scf.for"]
    assert [len(op.regions[0]) for op in loops] == [4, 2]
    branch = next(op for op in func.body if op.name == "scf.if")
    assert [len(r) for r in branch.regions] == [3, 2]


def test_per_step_counts_are_exact():
    module, func = kernel()
    counts = per_step(func, module, "kernel_pallas.py")
    assert dict(counts.totals) == {
        "mxu_flops": 4 * PRODUCT,  # the static loop of 4
        "loads": 8 * 128 + 4 * 128 * 256,
        "stores": V,
        # 4 addf in the loop; the `then` branch (exp + divf) outweighs the `else` (mulf);
        # reduction by its source, broadcast, iota, sitofp, select; the dynamic loop once
        "vpu": 4 * V + V + V + V + V + V + V,
        "eup": V + V,
        "relayout": 8,
        "reduced": 8,  # the reduction's result
        "scalar": 1,  # the cmpi; constants are free
    }
    assert counts.dynamic_loops == 1
    assert counts.by_op[("eup", "arith.divf")] == V
    assert counts.by_op[("vpu", "vector.multi_reduction")] == V


def test_source_lines_prefer_the_generated_file():
    module, func = kernel()
    counts = per_step(func, module, "kernel_pallas.py")
    assert counts.by_line[("loads", "kernel_pallas.py:10")] == 8 * 128
    assert counts.by_line[("mxu_flops", "kernel_pallas.py:12")] == 4 * PRODUCT
    assert counts.by_line[("eup", "kernel_pallas.py:20")] == 2 * V


def test_executed_decides_branches_and_loop_bounds_per_grid_step():
    module, func = kernel()
    counts, steps = executed(func, module)
    assert steps == 6
    assert counts.undecided == 0
    assert counts["mxu_flops"] == 6 * 4 * PRODUCT
    # program id 0 == 0 on 3 steps (exp + divf), else mulf; the second loop runs
    # %arg1 = 0, 1, 2 times on each row of the grid
    assert counts["eup"] == 3 * 2 * V
    assert counts["vpu"] == 6 * (4 * V + 5 * V) + 3 * V + 2 * (0 + 1 + 2) * V


def test_op_cost_of_single_lines():
    module = parse_module(
        "module {\n  func.func @k() {\n"
        "    %0 = tpu.matmul %a, %b, %c {dimension_numbers = #tpu.dot_dimension_numbers<[1], [1], [0], [0], [0, 0, 1, 0], [], []>} : vector<512x128xbf16>, vector<256x128xbf16>, vector<512x256xf32> -> vector<512x256xf32>\n"
        "    %1 = arith.truncf %0 : vector<512x256xf32> to vector<512x256xbf16>\n"
        "    %2 = arith.addi %x, %y : i32\n"
        "    %3 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#vector.iterator_type<parallel>, #vector.iterator_type<parallel>, #vector.iterator_type<reduction>], kind = #vector.kind<add>} %a, %b, %c : vector<8x64xf32>, vector<64x16xf32> into vector<8x16xf32>\n"
        "    return\n  }\n}\n"
    )
    ops = module.funcs[0].body
    assert op_cost(ops[0]) == {"mxu_flops": 2 * 512 * 256 * 128}
    assert op_cost(ops[1]) == {"vpu": 512 * 256}
    assert op_cost(ops[2]) == {"scalar": 1}
    assert op_cost(ops[3]) == {"mxu_flops": 2 * 8 * 16 * 64}


def test_split_modules_reads_pallas_debug_output():
    printed = "The kernel jaxpr for pallas_call k:\n{ lambda ; }\n\nThe Mosaic module for pallas_call k:\n" + KERNEL
    texts = split_modules(printed + "\nThe Mosaic module for pallas_call j:\nmodule {\n}\n")
    assert len(texts) == 2
    assert parse_module(texts[0]).kernel().iteration_bounds() == (2, 3)
    assert "#loc5 = " in texts[0]


# A while loop (lax.while_loop with a bound from the program id) over a grid of 4: step i runs
# its body i + 1 times.
WHILE_KERNEL = """\
module {
  func.func @kernel(%arg0: i32, %arg1: memref<8x128xf32, #tpu.memory_space<vmem>>) attributes {iteration_bounds = array<i64: 4>, window_params = []} {
    %cst_0 = arith.constant dense<0.000000e+00> : vector<8x128xf32>
    %c0 = arith.constant 0 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %0:2 = scf.while (%arg3 = %c0_i32, %arg4 = %cst_0) : (i32, vector<8x128xf32>) -> (i32, vector<8x128xf32>) {
      %15 = arith.cmpi sle, %arg3, %arg0 : i32
      scf.condition(%15) %arg3, %arg4 : i32, vector<8x128xf32>
    } do {
    ^bb0(%arg3: i32 loc("while:"(#loc42)), %arg4: vector<8x128xf32> loc("while:"(#loc42))):
      %15 = arith.addi %arg3, %c1_i32 : i32
      %16 = vector.load %arg1[%c0, %c0] : memref<8x128xf32, #tpu.memory_space<vmem>>, vector<8x128xf32>
      %17 = math.exp %16 : vector<8x128xf32>
      %18 = arith.addf %arg4, %17 : vector<8x128xf32>
      scf.yield %15, %18 : i32, vector<8x128xf32>
    }
    return
  }
}
"""


def test_while_loops_run_until_their_condition_fails():
    module = parse_module(WHILE_KERNEL)
    func = module.kernel()
    step = per_step(func, module)
    assert step.dynamic_loops == 1
    assert step["eup"] == 8 * 128  # the body once
    counts, steps = executed(func, module)
    assert steps == 4 and counts.undecided == 0
    assert counts["eup"] == (1 + 2 + 3 + 4) * 8 * 128
    assert counts["vpu"] == (1 + 2 + 3 + 4) * 8 * 128
