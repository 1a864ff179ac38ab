"""Inner loops whose inputs are copied from HBM by DMA (`fori_loop`: hand-written copies into
VMEM slots; `emit_pipeline`: Pallas's pipeline) under Pallas's TPU simulation with its race
detector: the results match the reference, no race is found, and no HBM ref is read directly
(the simulator raises on that). `fori_loop`'s prefetch distance depends on its slot count
(`pallas_load_buffer_count`): every sample streaming with it runs the default 2 slots and one
other count, 1 and 3 by turns, so each count meets about half the samples' loop structures
(one or several streamed inputs, nested loops, stores) rather than every one of them."""

from __future__ import annotations

import pytest
from jax._src.pallas.mosaic.interpret import interpret_pallas_call
from jax.experimental.pallas import tpu as pltpu

from conftest import import_module
from references import SAMPLES
from test_samples import STREAMING, Case, public_function, simulator_call


def _cases():
    cases = []
    other_slots = 1  # the count besides the default 2, alternating between 1 and 3
    for spec in SAMPLES:
        for types in spec.loop_types:
            if not any(t in STREAMING for t in types):
                continue
            config_id, sizes = next(iter(spec.configs.items()))
            slot_counts = (None,)
            if "fori_loop" in types:
                slot_counts = (2, other_slots)
                other_slots = 4 - other_slots
            for slots in slot_counts:
                cases.append(pytest.param(spec, config_id, sizes, types, slots,
                                          id=f"{spec.name}-{config_id}-{'-'.join(types)}"
                                          + (f"-{slots}slots" if slots else "")))
    return cases


@pytest.mark.parametrize("spec,config_id,sizes,types,slots", _cases())
def test_streamed_loops_have_no_races(helionc, spec, config_id, sizes, types, slots):
    tag = f"races-{config_id}-{'-'.join(types)}-{slots}"
    path = helionc.compile(spec.name, spec.kernel, tag, sizes, loop_types=types,
                           load_buffers=(slots,) * len(types) if slots else ())
    fn = public_function(import_module(path, f"helionc_races.{spec.name}.{tag}"), spec)
    case = Case(spec, simulator_call(spec), {})
    try:
        case.check(fn(*case.arrays(), **case.scalars, interpret=pltpu.InterpretParams(detect_races=True)))
        races = interpret_pallas_call.races
        assert races is not None, "the race detector did not run"
        assert not races.races_found, "the TPU simulator found a DMA race"
    finally:
        pltpu.reset_tpu_interpret_mode_state()
