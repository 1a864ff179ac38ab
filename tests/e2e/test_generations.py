"""Formulations that depend on the TPU generation a kernel is traced for, checked against numpy.

A module asks `_tpu_generation()` while JAX traces it where an older TPU lacks an instruction
(src/backend/pallas/README.md, "Generations"): TPU v4 has no sublane gather (reductions along
lanes move to lanes by a transpose; `torch.gather` along sublanes goes by one-hot) and no 8-bit
products (8-bit operands multiply as bfloat16), and its Mosaic splits no lane axis into pieces
narrower than a vreg (`_reshape` joins lane slices, or splits many pieces in the sublanes). Each sample below takes one of those
formulations. Its default module runs in interpret mode traced for a TPU v4 (the abstract mesh
of e2e_support.tpu_tracing, as on a TPU v4 host), on the first two calls of its sidecar, and is
compiled for a TPU v4 for real. A kernel traces the body of an inner loop apart from the rest
(a pipeline's body inside `pltpu.emit_pipeline`), so each sample with inner loops also runs under
each strategy that streams its blocks, on its first config and call: the formulation must reach
every body traced for the kernel's generation, whichever TARGET the module was compiled for.
"""

from __future__ import annotations

import pathlib

import pytest

from e2e_support import SAMPLES_DIR, interpretable, read_shapes_file, tpu_device, tpu_tracing
from references import SAMPLES
from test_samples import STREAMING, Case, assert_launches, compiled

# sample -> the formulation its kernel takes on TPU v4
V4_FORMULATIONS = {
    "row_sum": "a sum along lanes stored as a row",
    "layer_norm_stats": "statistics along lanes used as columns and stored as rows",
    "cross_entropy": "a kept-dimension maximum squeezed into a row",
    "row_center": "a sum along lanes reshaped to a column and back",
    "first_argmax": "an associative reduction along lanes (hl.reduce)",
    "stamp_last_column": "a column read and a scatter along lanes",
    "weighted_taps": "a 1-D gather by one-hot",
    "cross_entropy_gather": "a pick per row by one-hot",
    "chunk_column_offsets": "a pick along lanes",
    "attention": "running row statistics kept in scratch",
    "column_pick": "torch.gather along sublanes",
    "int8_matmul": "int8 products as bfloat16 into an int32 accumulator, exact",
    "int8_matmul_whole_k": "int8 products as bfloat16 over a whole contraction, exact",
    "fp8_matmul": "8-bit float products as bfloat16",
    "merge_views": "axes merged into the lanes, then split in halves by lane slices",
    "mask_layouts": "a mask's lane axis split into groups by lane slices",
    "pair_views": "a lane axis split into 32 pairs through the sublanes",
    "group4_mix": "a lane axis split into groups of 2 x 2 through the sublanes",
    "narrow_last_axis": "16-bit values given a new last axis as 32-bit ones",
}


def _cases():
    cases = []
    for spec in SAMPLES:
        if spec.name not in V4_FORMULATIONS:
            continue
        calls = [c for c in read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") if interpretable(c)]
        for call in calls[:2]:
            cases.append(pytest.param(spec, call, id=f"{spec.name}-{call}"))
    return cases


def _streaming_cases():
    cases = []
    for spec in SAMPLES:
        if spec.name not in V4_FORMULATIONS or not spec.loop_types:
            continue
        call = next(c for c in read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") if interpretable(c))
        first = next(iter(spec.configs))
        for types in spec.loop_types:
            if any(t in STREAMING for t in types):
                config_id = f"{first}-{'-'.join(types)}"
                cases.append(pytest.param(spec, config_id, call, id=f"{spec.name}-{config_id}-{call}"))
    return cases


def test_every_listed_sample_exists():
    assert set(V4_FORMULATIONS) <= {spec.name for spec in SAMPLES}


@pytest.mark.parametrize("spec,call", _cases())
def test_v4_formulation(helionc, tpu_lower, spec, call):
    check_on_v4(tpu_lower, compiled(helionc, spec, None), spec, call)


@pytest.mark.parametrize("spec,config_id,call", _streaming_cases())
def test_v4_formulation_streaming(helionc, tpu_lower, spec, config_id, call):
    check_on_v4(tpu_lower, compiled(helionc, spec, config_id), spec, call)


def check_on_v4(tpu_lower, fn, spec, call):
    """`fn` picks a formulation by generation, matches numpy traced for a TPU v4 (interpret
    mode) and compiles for one."""
    source = pathlib.Path(fn.__code__.co_filename).read_text()
    assert "_tpu_generation()" in source, "the module picks no formulation by generation"
    case = Case(spec, call, {})
    with tpu_tracing(tpu_device("tpu-v4").device_kind):
        case.check(fn(*case.arrays(), **case.scalars, interpret=True))
    lower = lambda *args: fn(*args, **case.scalars, interpret=False)
    assert_launches(spec, tpu_lower(lower, *case.structs(), generation="tpu-v4"))
