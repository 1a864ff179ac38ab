"""`helionc --estimate` (issue 10): the cost model's prediction per launch as YAML on stdout,
for the default config over `--shapes` and for every entry of a `--config` file. The figures
themselves are checked in tests/unit/resources/cost_model_test.cpp and against published
measurements in tests/bench/calibrate.py; here: the command, its YAML and its errors."""

import os
import pathlib
import re
import subprocess

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
MATMUL = PROJECT_ROOT / "samples" / "matmul.py"
SQUARE_4096 = "x=4096x4096:bf16,y=4096x4096:bf16"


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(helionc_binary()), *map(str, args)], capture_output=True, text=True,
                          timeout=60)


def config(tmp_path, text: str) -> pathlib.Path:
    path = tmp_path / "mm.yaml"
    path.write_text("schema_version: 1\nkernel: matmul\n" + text)
    return path


def field(text: str, name: str) -> list[str]:
    """The values of `name:` (a mapping key, or the first key of a list item)."""
    return re.findall(rf"^\s*(?:- )?{name}: (.*)$", text, re.M)


def test_default_config_over_shapes(tmp_path):
    cfg = config(tmp_path, "default: {block_sizes: [512, 1024, 1024], pallas_loop_type: [grid]}\n")
    proc = run(MATMUL, "--estimate", "--target", "tpu-v5e", "--config", cfg, "--shapes", SQUARE_4096)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert field(out, "target") == ['"tpu-v5e"']
    assert field(out, "kernel") == ['"matmul"']
    assert field(out, "config") == ['{block_sizes: [512, 1024, 1024], pallas_loop_type: ["grid"]}'
                                    '  # block_sizes: tile_m, tile_n, tile_k']
    assert field(out, "bound") == ['"MXU"']
    assert field(out, "fits") == ["true"]
    # The call's time is its one launch's, and the terms add up to it.
    call_time, launch_time = map(float, field(out, "time_us"))
    assert call_time == launch_time
    terms = re.search(r"terms: \{(.*)\}", out).group(1)
    total = sum(float(item.split(": ")[1]) for item in terms.split(", "))
    assert abs(total - launch_time) < 0.01
    # The flops are the matmul's: 2 m n k for the products, plus the accumulator's adds.
    assert int(field(out, "mxu_flops")[0]) == 2 * 4096**3
    fraction = float(field(out, "fraction_of_peak")[0])
    assert 0.5 < fraction < 1.0


def test_small_blocks_are_bound_by_the_step_overhead(tmp_path):
    cfg = config(tmp_path, "default: {block_sizes: [128, 128, 128]}\n")
    proc = run(MATMUL, "--estimate", "--target", "tpu-v5e", "--config", cfg, "--shapes", SQUARE_4096)
    assert proc.returncode == 0, proc.stderr
    assert field(proc.stdout, "bound") == ['"step overhead"']


def test_a_small_call_is_bound_by_the_launch_overhead(tmp_path):
    cfg = config(tmp_path, "default: {block_sizes: [256, 256, 256]}\n")
    proc = run(MATMUL, "--estimate", "--target", "tpu-v5e", "--config", cfg,
               "--shapes", "x=256x256:bf16,y=256x256:bf16")
    assert proc.returncode == 0, proc.stderr
    assert field(proc.stdout, "bound") == ['"launch overhead"']
    terms = dict(item.split(": ") for item in
                 re.search(r"terms: \{(.*)\}", proc.stdout).group(1).split(", "))
    assert max(terms, key=lambda name: float(terms[name])) == "launch_overhead_us"


def test_entries_are_estimated_for_their_own_shapes(tmp_path):
    cfg = config(tmp_path, """configs:
  - shapes: {x: [4096, 65536], y: [65536, 4096]}
    dtypes: {x: bfloat16, y: bfloat16}
    config: {block_sizes: [512, 512, 512], pallas_loop_type: [unroll], vmem_limit_bytes: 33554432}
""")
    proc = run(MATMUL, "--estimate", "--config", cfg)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # The default has no calls without --shapes; the entry has its own.
    assert "calls: []" in out
    assert field(out, "shapes") == ['"x=4096x65536:bf16,y=65536x4096:bf16"']
    # k resident: 2 x (512 x 65536) bf16 blocks, double-buffered, do not fit 32 MiB.
    assert field(out, "fits") == ["false"]
    assert "vmem_limit_bytes" in field(out, "why")[0]


def test_same_inputs_same_output(tmp_path):
    args = (MATMUL, "--estimate", "--target", "tpu-v6e", "--shapes",
            f"{SQUARE_4096};x=1000x300:f32,y=300x200:f32")
    first, second = run(*args), run(*args)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert len(field(first.stdout, "launch")) == 2


def test_usage_errors():
    proc = run(MATMUL, "--estimate", "--emit", "ir")
    assert proc.returncode == 2
    assert "--estimate and --emit do not go together" in proc.stderr
    proc = run(MATMUL, "--estimate", "--shapes", "z=4x4:bf16")
    assert proc.returncode == 2
    assert "`z` is not a tensor parameter of kernel `matmul`" in proc.stderr
    proc = run(MATMUL, "--shapes", SQUARE_4096)
    assert proc.returncode == 2
    assert "only used with `--emit report`, `--emit config-space`, `--estimate` and `--autotune`" in proc.stderr


def test_a_launch_that_does_not_run_for_the_call():
    # layer_norm's `bias is None` branch: without `bias` the launch that reads it does not run,
    # and the call's time is the other launch's.
    proc = run(PROJECT_ROOT / "samples" / "layer_norm.py", "--estimate", "--shapes",
               "x=1000x300:f32,weight=300:f32")
    assert proc.returncode == 0, proc.stderr
    assert field(proc.stdout, "runs") == ["false  # an optional tensor it reads is None in this call"]
    call_time, launch_time = map(float, field(proc.stdout, "time_us"))
    assert call_time == launch_time


def test_several_configs_merge_later_over_earlier(tmp_path):
    generated = tmp_path / "gen.yaml"
    generated.write_text("schema_version: 1\nkernel: matmul\n"
                         "default: {block_sizes: [128, 128, 128]}\n"
                         "configs:\n"
                         "  - shapes: {x: [512, 512], y: [512, 512]}\n"
                         "    dtypes: {x: bfloat16, y: bfloat16}\n"
                         "    config: {block_sizes: [128, 128, 128]}\n")
    hand = tmp_path / "hand.yaml"
    hand.write_text("schema_version: 1\nkernel: matmul\n"
                    "configs:\n"
                    "  - shapes: {x: [512, 512], y: [512, 512]}\n"
                    "    dtypes: {x: bfloat16, y: bfloat16}\n"
                    "    config: {block_sizes: [256, 256, 512]}\n")
    proc = run(MATMUL, "--estimate", "--config", generated, "--config", hand)
    assert proc.returncode == 0, proc.stderr
    # The generated default, the hand-written entry (labelled with its own file's line).
    tiles = "  # block_sizes: tile_m, tile_n, tile_k"
    assert field(proc.stdout, "config") == ["{block_sizes: [128, 128, 128]}" + tiles,
                                            "{block_sizes: [256, 256, 512]}" + tiles]
    assert field(proc.stdout, "label") == ['"default (gen.yaml:3)"', '"1 (hand.yaml:4)"']
