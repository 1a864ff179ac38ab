"""Kernels without an `hl.tile` or `hl.grid` loop (docs/design/decisions.md, "Empty axes and kernels without loops").

Helion refuses them (NoDeviceLoopsInKernel). helionc compiles them with a warning
(`-Wmissing-device-loop`) to a function that runs the host code as jnp with no `pallas_call`, and
keeps the module's contract: the kernel's signature plus `interpret=None`, `reference_<kernel>`,
`-> None` giving None, updated parameters returned. The numerics of samples/host_only.py are
test_samples.py's (SampleSpec host_only); this file checks the module's form, the warning, the
other `--emit` modes, `--estimate`, `--autotune` and depfiles on such a kernel.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module

WARNING = "has no `hl.tile` or `hl.grid` loop: Helion refuses it (NoDeviceLoopsInKernel)"
SHAPES = "x=64x128:f32,y=128:f32;x=7x5:bf16,y=5:f32"

# The forms of Helion's corpus: nothing returned, a constexpr parameter alone, an in-place
# update in host code, a scalar parameter with a default returned beside an input.
KERNELS = '''
import torch
import helion
import helion.language as hl


@helion.kernel()
def nothing(x: torch.Tensor, mode: hl.constexpr = 1) -> None:
    pass


@helion.kernel()
def device_key(device: hl.constexpr) -> None:
    pass


@helion.kernel()
def zero_first(x: torch.Tensor) -> None:
    x[0] = 0.0


@helion.kernel()
def passthrough(x: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    return x
'''


@pytest.fixture(scope="module")
def forms(helionc, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("host_only")
    source = tmp / "forms.py"
    source.write_text(KERNELS)
    out = tmp / "forms_pallas.py"
    proc = helionc.run([str(source), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    return proc, out, import_module(out, "helionc_e2e.host_only.forms")


def test_warns_and_launches_nothing(helionc, tmp_path):
    out = tmp_path / "host_only_pallas.py"
    proc = helionc.run(["samples/host_only.py", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert f"samples/host_only.py:16:5: warning: kernel `host_only` {WARNING}" in proc.stderr
    assert "[-Wmissing-device-loop]" in proc.stderr
    text = out.read_text()
    assert "pallas_call(" not in text.split("def host_only(")[1]
    assert "_HOST_ONLY_CONFIGS" not in text  # no tunables, no config table
    assert "# No hl.tile or hl.grid loop (Helion refuses such a kernel)" in text


def test_warning_flags(helionc, tmp_path):
    out = tmp_path / "werror_pallas.py"
    proc = helionc.run(["samples/host_only.py", "-Werror", "-o", str(out)])
    assert proc.returncode == 1
    assert f"error: kernel `host_only` {WARNING}" in proc.stderr
    assert not out.exists()
    proc = helionc.run(["samples/host_only.py", "-Wno-missing-device-loop", "-o", str(tmp_path / "quiet.py")])
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr


def test_forms_of_the_corpus(forms):
    proc, _, module = forms
    for name in ("nothing", "device_key", "zero_first", "passthrough"):
        assert f"kernel `{name}` {WARNING}" in proc.stderr
    x = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    assert module.nothing(x) is None
    assert module.nothing(x, 2, interpret=True) is None
    assert module.reference_nothing(x) is None
    assert module.device_key("cuda:0") is None
    assert module.reference_device_key("cuda:0") is None
    # an in-place update is returned, as for any kernel that updates a parameter
    want = np.arange(12, dtype=np.float32).reshape(3, 4)
    want[0] = 0.0
    for fn in (module.zero_first, module.reference_zero_first, jax.jit(module.zero_first)):
        np.testing.assert_array_equal(np.asarray(fn(x)), want)
    np.testing.assert_array_equal(np.asarray(x), np.arange(12, dtype=np.float32).reshape(3, 4))
    assert module.passthrough(x, 0.5) is x
    np.testing.assert_array_equal(np.asarray(jax.jit(module.passthrough)(x)), np.asarray(x))


def test_none_under_jit(forms):
    _, _, module = forms
    assert jax.jit(module.nothing)(jnp.ones((2, 3))) is None


def test_emit_modes(helionc):
    proc = helionc.run(["samples/host_only.py", "--emit", "ir", "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert "kernel host_only(" in proc.stdout and "tunable_blocks 0" in proc.stdout
    proc = helionc.run(["samples/host_only.py", "--emit", "reference", "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert '"""`host_only` in plain jnp: host code only, it has no tiles."""' in proc.stdout
    proc = helionc.run(["samples/host_only.py", "--emit", "report", "--shapes", SHAPES, "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("no launches: the kernel has no `hl.tile` or `hl.grid` loop") == 2
    assert "launch 0" not in proc.stdout
    proc = helionc.run(["samples/host_only.py", "--emit", "report", "-o", "-"])  # no shapes needed
    assert proc.returncode == 0, proc.stderr
    assert "no launches" in proc.stdout and "--shapes" not in proc.stdout
    proc = helionc.run(["samples/host_only.py", "--emit", "config-space", "--shapes", SHAPES, "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("tunables: []") == 2


def test_estimate(helionc):
    proc = helionc.run(["samples/host_only.py", "--estimate", "--shapes", SHAPES, "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("launches: []") == 2
    assert proc.stdout.count("time_us: 0.000") == 2


def test_autotune_round_trip(helionc, tmp_path):
    tuned = tmp_path / "tuned.yaml"
    out = tmp_path / "tuned_pallas.py"
    proc = helionc.run(["samples/host_only.py", "--autotune", "--shapes", SHAPES, "--config-out", str(tuned),
                        "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert "MXU" not in proc.stderr  # nothing is launched, so nothing bounds the time
    assert " none " in proc.stderr
    assert tuned.read_text().count("config: {}") == 2
    module = import_module(out, "helionc_e2e.host_only.tuned")
    x, y = jnp.ones((7, 5), jnp.bfloat16), jnp.ones((5,), jnp.float32)
    got_x, got = module.host_only(x, y)
    assert got_x is x and got.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(got), 1.0 + 1e-5, rtol=1e-6)


def test_block_sizes_refused(helionc, tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("schema_version: 1\nkernel: host_only\ndefault:\n  block_sizes: [64]\n")
    proc = helionc.run(["samples/host_only.py", "--config", str(config), "-o", str(tmp_path / "bad.py")])
    assert proc.returncode == 1
    assert "`block_sizes` has 1 entry but kernel `host_only` has 0 tunable block sizes" in proc.stderr


def test_depfile(helionc, tmp_path):
    depfile = tmp_path / "host_only.d"
    out = tmp_path / "dep_pallas.py"
    proc = helionc.run(["samples/host_only.py", "-MD", "-MF", str(depfile), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert f"{out}:" in depfile.read_text() and "samples/host_only.py" in depfile.read_text()
