"""A kernel whose locals are named like every name the module defines (issue 9, "one table per
concept"): every module-level name of templates/*.tmpl, read here independently of helionc,
and the imports `jax`, `jnp`, `pl`, `pltpu`, `functools`, `math`. helionc must rename them all,
so the module imports, uses its own helpers (`_dot`, `_expm1`, `_sinh`, ...) and matches numpy
in interpret mode. Before the reserved names were derived from the templates, a local named
`_dot` compiled and then failed while JAX traced (`'DynamicJaxprTracer' object is not
callable`).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from conftest import import_module
from e2e_support import PROJECT_ROOT

HOST_NAMES = ["math", "jax", "pltpu", "functools"]  # sizes m, k, k2, n on the host


def template_names() -> list[str]:
    names = set()
    for path in sorted((PROJECT_ROOT / "templates").glob("*.tmpl")):
        for match in re.finditer(r"^(?:def |class )?([A-Za-z_]\w*) *[(:=]", path.read_text(), re.M):
            names.add(match.group(1))
    return sorted(names - {"jnp", "pl"}) + ["jnp", "pl"]


def kernel_source(device_names: list[str]) -> str:
    m, k, k2, n = HOST_NAMES
    lines = [
        "import torch",
        "import helion",
        "import helion.language as hl",
        "",
        "",
        "@helion.kernel()",
        "def shadowed(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:",
        f"    {m}, {k} = x.size()",
        f"    {k2}, {n} = y.size()",
        f"    out = torch.empty([{m}, {n}], dtype=torch.float32, device=x.device)",
        f"    for tile_m, tile_n in hl.tile([{m}, {n}]):",
        "        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)",
        f"        for tile_k in hl.tile({k}):",
        "            acc = acc + torch.matmul(x[tile_m, tile_k], y[tile_k, tile_n])",
        f"        {device_names[0]} = torch.expm1(acc * 0.01)",
        f"        {device_names[1]} = torch.sinh({device_names[0]})",
        f"        {device_names[2]} = torch.cosh({device_names[1]})",
    ]
    for previous, name in zip(device_names[2:], device_names[3:]):
        lines.append(f"        {name} = {previous} + 1.0")
    lines += [f"        out[tile_m, tile_n] = {device_names[-1]}", "    return out", ""]
    return "\n".join(lines)


def test_locals_named_like_every_module_name(helionc, tmp_path):
    names = template_names()
    assert len(names) > 40 and "_dot" in names and "_select_config" in names
    assert "_ref_dot" in names and "_RefTile" in names
    source = tmp_path / "shadowed.py"
    source.write_text(kernel_source(names))
    out = tmp_path / "shadowed_pallas.py"
    proc = helionc.run([str(source), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    for helper in ("_dot(", "_expm1(", "_sinh(", "_cosh("):
        assert helper in text, f"the module does not use {helper}: the test would prove nothing"
    module = import_module(out, "helionc_e2e.shadowed")

    rng = np.random.default_rng(0)
    for m, k, n in [(16, 128, 128), (20, 130, 136)]:
        x = rng.standard_normal((m, k)).astype(np.float32)
        y = rng.standard_normal((k, n)).astype(np.float32)
        got = np.asarray(module.shadowed(x, y, interpret=True))
        want = np.cosh(np.sinh(np.expm1((x.astype(np.float64) @ y) * 0.01)))
        want = want + (len(names) - 3)
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-4)
        # The reference uses its own helpers (`_ref_dot`, `_RefTile`, ...): renamed locals too.
        reference = np.asarray(module.reference_shadowed(x, y))
        np.testing.assert_allclose(reference, want, rtol=2e-5, atol=1e-4)
