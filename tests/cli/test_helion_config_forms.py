"""Config keys as Helion's own tests write them: `pallas_load_buffer_count` with one count per
tensor parameter (helionc's form has one per inner loop) and `pallas_pre_broadcast: true`
(accepted, no effect). docs/guide/tuning.md, "Inner-loop strategies"."""

import os
import pathlib
import re
import subprocess

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]

# One inner loop streaming `a` and `b`, three tensor parameters (`scale` is read whole).
KERNEL = '''
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scaled_product(a: torch.Tensor, b: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    m, k = a.size()
    n = b.size(1)
    out = torch.empty([m, n], dtype=torch.float32, device=a.device)
    for tile_m, tile_n in hl.tile([m, n]):
        total = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            total = torch.addmm(total, a[tile_m, tile_k], b[tile_k, tile_n])
        out[tile_m, tile_n] = total * scale[tile_n][None, :]
    return out
'''
SHAPES = "a=256x512:f32,b=512x256:f32,scale=256:f32"


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def compile_with(tmp_path, config: str, *args) -> subprocess.CompletedProcess:
    """helionc on KERNEL with `config` as the default; the output (the module, or what `args`
    ask for) is the result's `stdout`."""
    source = tmp_path / "scaled_product.py"
    source.write_text(KERNEL)
    cfg = tmp_path / "scaled_product.yaml"
    cfg.write_text(f"schema_version: 1\nkernel: scaled_product\ndefault: {config}\n")
    output = tmp_path / "out.txt"
    output.unlink(missing_ok=True)
    proc = subprocess.run([str(helionc_binary()), str(source), "--config", str(cfg), "-o",
                           str(output), *args], capture_output=True, text=True, timeout=60)
    proc.stdout = output.read_text() if output.exists() else ""
    return proc


def module_buffers(text: str) -> str | None:
    found = re.search(r'"pallas_load_buffer_count": (\([^)]*\))', text)
    return found and found.group(1)


def test_per_tensor_counts_become_per_loop(tmp_path):
    # `a` and `b` stream through the loop: it takes the larger of their counts; `scale`'s 3
    # does not count, the loop does not stream it.
    for counts, loop in (("[1, 1, 3]", "(1,)"), ("[1, 2, 1]", "(2,)"), ("[3, 1, 1]", "(3,)")):
        proc = compile_with(tmp_path, "{block_sizes: [8, 128, 128], pallas_loop_type: [fori_loop], "
                            f"pallas_load_buffer_count: {counts}}}")
        assert proc.returncode == 0, proc.stderr
        assert module_buffers(proc.stdout) == loop, counts


def test_per_loop_counts_stay_as_given(tmp_path):
    proc = compile_with(tmp_path, "{pallas_loop_type: [fori_loop], pallas_load_buffer_count: [3]}")
    assert proc.returncode == 0, proc.stderr
    assert module_buffers(proc.stdout) == "(3,)"


def test_report_shows_the_loop_count(tmp_path):
    proc = compile_with(tmp_path, "{block_sizes: [8, 128, 128], pallas_loop_type: [fori_loop], "
                        "pallas_load_buffer_count: [1, 1, 2]}", "--emit", "report", "--shapes",
                        SHAPES)
    assert proc.returncode == 0, proc.stderr
    assert "fori_loop (1 buffer)" in proc.stdout


def test_a_length_of_neither_form_names_both(tmp_path):
    proc = compile_with(tmp_path, "{pallas_load_buffer_count: [2, 2]}")
    assert proc.returncode != 0
    assert ("`pallas_load_buffer_count` has 2 entries but kernel `scaled_product` has 1 inner "
            "loop and 3 tensor parameters") in proc.stderr


def test_pre_broadcast_is_accepted_and_changes_nothing(tmp_path):
    plain = compile_with(tmp_path, "{pallas_loop_type: [emit_pipeline]}")
    assert plain.returncode == 0 and "emit_pipeline" in plain.stdout, plain.stderr
    for flag in ("true", "false"):
        proc = compile_with(tmp_path, f"{{pallas_loop_type: [emit_pipeline], pallas_pre_broadcast: {flag}}}")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == plain.stdout
