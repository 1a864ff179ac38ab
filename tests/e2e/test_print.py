"""`print` in a kernel (samples/debug_prints.py): what the module and its reference print.

The host's print is Python's (once per call here, outside `jax.jit`); in the kernel each
printed array is a `pl.debug_print` line headed by the texts and numbers before it, once per
grid step, and the texts after the last array are a line of their own.
"""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np


def _x(rows, cols):
    return jnp.asarray(np.arange(rows * cols, dtype=np.float32).reshape(rows, cols))


def test_the_kernel_prints_a_line_per_array_per_block(helionc, capfd):
    module = helionc.module("debug_prints", "debug_prints", "b8", (8,))
    x = _x(20, 3)  # blocks of 8 rows: three grid steps
    jax.block_until_ready(module.debug_prints(x, interpret=True))
    out = capfd.readouterr().out
    assert out.count("rows and columns: 20 3\n") == 1
    assert len(re.findall(r"^row sums \[", out, re.M)) == 3
    assert len(re.findall(r"^of 3 columns$", out, re.M)) == 3
    totals = [float(v) for v in re.findall(r"^first column total (\S+)$", out, re.M)]
    # The two full blocks' totals (the partial one adds its padding rows, whatever they hold).
    assert len(totals) == 3
    assert sum(range(0, 24, 3)) in totals and sum(range(24, 48, 3)) in totals


def test_the_reference_prints_the_whole_range(helionc, capfd):
    module = helionc.module("debug_prints", "debug_prints", "b8", (8,))
    jax.block_until_ready(module.reference_debug_prints(_x(20, 3)))
    out = capfd.readouterr().out
    assert out.count("rows and columns: 20 3\n") == 1
    assert len(re.findall(r"^row sums \[", out, re.M)) == 1
    assert re.search(r"^first column total 570\.0$", out, re.M)
