"""Hostile input (issue 13): text that could escape its place in the generated module, and
Python that tree-sitter accepts but CPython refuses or that collides with the module's own
names. Each case asserts the exit status; on error, the diagnostic's location and that no
output file appeared; after exit 0, that the module imports, its function runs and matches
numpy, and that nothing smuggled into a comment or path ran.
"""

from __future__ import annotations

import os
import pathlib
import subprocess

import numpy as np
import pytest

from conftest import import_module

HEADER = b"import torch\nimport helion\nimport helion.language as hl\n\n\n"  # 5 lines


def kernel(name: str = "k", params: str = "x: torch.Tensor", body_before: str = "",
           loop_comment: str = "", use: str = "x[tile]") -> bytes:
    """An elementwise kernel `out = use + 1` whose def line is line 7."""
    text = (
        f"@helion.kernel()\n"
        f"def {name}({params}) -> torch.Tensor:\n"
        f"{body_before}"
        f"    out = torch.empty_like(x)\n"
        f"    for tile in hl.tile(x.size()):{loop_comment}\n"
        f"        out[tile] = {use} + 1.0\n"
        f"    return out\n"
    )
    return HEADER + text.encode("utf-8", "surrogateescape")


def run(helionc, tmp_path: pathlib.Path, source: bytes, name: str = "k.py", extra=()):
    """Compiles `source` (written as tmp_path/name) to tmp_path/out.py; returns (proc, out)."""
    src = tmp_path / name
    src.write_bytes(source)
    out = tmp_path / "out.py"
    proc = subprocess.run([str(helionc.binary), str(src), "-o", str(out), "--color", "never",
                           *extra], capture_output=True, timeout=60)
    return proc, out, src


def expect_error(helionc, tmp_path, source: bytes, line: int, marker: str, words: str, **kw):
    """Exit 1 with an error at `line` and the column where `marker` starts on it; no output."""
    column = source.split(b"\n")[line - 1].find(marker.encode("utf-8", "surrogateescape")) + 1
    assert column > 0
    proc, out, src = run(helionc, tmp_path, source, **kw)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, stderr
    assert f"{src.name}:{line}:{column}: error: " in stderr, stderr
    assert words in stderr, stderr
    assert not out.exists()
    assert "\x1b" not in stderr and "\r" not in stderr
    return stderr


def expect_module(helionc, tmp_path, source: bytes, function: str = "k", **kw):
    """Exit 0; the module has no raw CR/NUL, imports, and `function(x)` is x + 1."""
    os.environ.pop("HELIONC_PWNED", None)
    proc, out, _ = run(helionc, tmp_path, source, **kw)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    text = out.read_bytes()
    assert b"\r" not in text and b"\0" not in text
    text.decode("utf-8")  # strict
    module = import_module(out, f"hostile_{tmp_path.name}")
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    got = np.asarray(getattr(module, function)(x, interpret=True))
    np.testing.assert_allclose(got, x + 1.0)
    assert "HELIONC_PWNED" not in os.environ, "text from a comment or path ran as code"
    return module, text.decode("utf-8")


PWN = "import os; os.environ['HELIONC_PWNED'] = '1'"

# ---- 1. text that reaches comments and strings -----------------------------------------------


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028",
                                 "\u2029", "\x1b[2J"])
def test_line_breaks_in_a_loop_comment_stay_in_the_comment(helionc, tmp_path, brk):
    # The loop's source line is echoed into a comment above its pallas_call.
    source = kernel(loop_comment=f"  # note{brk}{PWN}")
    if brk == "\r":
        # Python itself ends a line at a lone CR, and so does helionc: the text after it is a
        # dedented line of code, where CPython also says an indented block was expected. Never
        # a module that runs it.
        proc, out, _ = run(helionc, tmp_path, source)
        assert proc.returncode == 1, proc.stderr
        assert b"k.py:10:1: error: expected an indented block" in proc.stderr
        assert not out.exists()
        return
    _, text = expect_module(helionc, tmp_path, source)
    assert PWN not in [line.strip() for line in text.splitlines()]


def test_cr_inside_a_loop_header(helionc, tmp_path):
    source = HEADER + (b"@helion.kernel()\ndef k(x: torch.Tensor) -> torch.Tensor:\n"
                       b"    out = torch.empty_like(x)\n"
                       b"    for tile in hl.tile(\rx.size()):\n"
                       b"        out[tile] = x[tile] + 1.0\n    return out\n")
    expect_module(helionc, tmp_path, source)


def test_source_path_with_line_breaks(helionc, tmp_path):
    # The path lands in the header comment and in every source-line comment.
    expect_module(helionc, tmp_path, kernel(), name=f"k\r{PWN}\u2028\x0b.py")


def test_config_path_with_line_breaks(helionc, tmp_path):
    config = tmp_path / f"c\r{PWN}\r.yaml"
    config.write_text("schema_version: 1\nkernel: k\ndefault:\n  block_sizes: [8, 128]\n")
    _, text = expect_module(helionc, tmp_path, kernel(), extra=["--config", str(config)])
    assert "\\r" in text  # the path is there, escaped


def test_escape_sequences_in_diagnostics_are_escaped(helionc, tmp_path):
    source = kernel(use="x[tile] + yy  # \x1b]0;title\x07\x1b[2J")
    stderr = expect_error(helionc, tmp_path, source, 10, "yy", "undefined name `yy`")
    assert "\\x1b]0;title\\x07\\x1b[2J" in stderr


# ---- 2. Python CPython refuses, and names that collide with the module's -----------------------


def test_invalid_utf8_in_an_assert_message(helionc, tmp_path):
    source = kernel(body_before="    assert x.size(0) > 0, 'bad \udcff byte'\n")
    expect_error(helionc, tmp_path, source, 8, "\udcff", "byte 0xff is not UTF-8")


def test_nul_in_the_source(helionc, tmp_path):
    source = kernel(body_before="    assert x.size(0) > 0, 'nul'  # \0\n")
    expect_error(helionc, tmp_path, source, 8, "\0", "NUL byte")


def test_cr_in_an_assert_message(helionc, tmp_path):
    # A lone CR ends the line, as in CPython: the string literal is unterminated at its quote.
    source = kernel(body_before="    assert x.size(0) > 0, 'a\rraise SystemExit'\n")
    expect_error(helionc, tmp_path, source, 8, "'a", "unterminated string literal")


@pytest.mark.parametrize("name", ["if", "for", "None"])
def test_keyword_as_kernel_name(helionc, tmp_path, name):
    expect_error(helionc, tmp_path, kernel(name=name), 7, name, f"`{name}` is a Python keyword")


def test_keyword_as_parameter_name(helionc, tmp_path):
    source = kernel(params="x: torch.Tensor, pass: float = 1.0")
    expect_error(helionc, tmp_path, source, 7, "pass", "`pass` is a Python keyword")


def test_duplicate_parameter(helionc, tmp_path):
    source = kernel(params="x: torch.Tensor, x: torch.Tensor")
    expect_error(helionc, tmp_path, source, 7, "x: torch.Tensor)", "duplicate parameter `x`")


def test_parameter_without_default_after_one_with(helionc, tmp_path):
    source = kernel(params="s: float = 1.0, x: torch.Tensor")
    expect_error(helionc, tmp_path, source, 7, "x:", "without a default follows one with a default")


def test_names_equal_after_nfkc(helionc, tmp_path):
    # Python reads the fullwidth name as `interpret`, the public function's own keyword.
    source = kernel(params="x: torch.Tensor, \uff49\uff4e\uff54\uff45\uff52\uff50\uff52\uff45\uff54: float = 1.0")
    expect_error(helionc, tmp_path, source, 7, "\uff49", "non-ASCII identifier")


@pytest.mark.parametrize("name", ["jax", "jnp", "pl", "pltpu", "functools", "math", "_interpret",
                                  "_legal_block", "_select_config", "_dot", "TARGET", "len",
                                  "range"])
def test_kernel_named_like_a_module_name(helionc, tmp_path, name):
    expect_error(helionc, tmp_path, kernel(name=name), 7, name, f"a kernel named `{name}` would replace")


@pytest.mark.parametrize("name", ["_x_kernel", "_x_kernel_1", "_X_CONFIGS", "_X_DEFAULT"])
def test_kernel_named_like_another_kernels_module_name(helionc, tmp_path, name):
    source = kernel(name="x") + kernel(name=name)[len(HEADER):]
    expect_error(helionc, tmp_path, source, 13, name, f"a kernel named `{name}` would replace")


def test_kernel_named_like_module_names_of_absent_kernels(helionc, tmp_path):
    # Helion's own files name kernels `_matmul_kernel`: reserved only when `matmul` is a kernel too.
    proc, out, _ = run(helionc, tmp_path, kernel(name="_matmul_kernel"))
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"def _matmul_kernel(x: jax.Array, *, interpret=None):" in out.read_bytes()


def test_kernels_sharing_config_names(helionc, tmp_path):
    source = kernel(name="k") + kernel(name="K")[len(HEADER):]
    expect_error(helionc, tmp_path, source, 13, "K", "would share the module names `_K_CONFIGS`")


@pytest.mark.parametrize("name", ["_K_CONFIGS", "_K_DEFAULT", "_k_kernel", "len", "range",
                                  "min", "interpret", "jnp", "jnp_", "_dot", "_select_config",
                                  "tpu_lowering_context", "TARGET", "pl"])
def test_parameter_named_like_a_module_name(helionc, tmp_path, name):
    # A scalar parameter that the body reads, so its renamed spelling must be used throughout.
    source = kernel(params=f"x: torch.Tensor, {name}: float = 1.0", use=f"x[tile] * {name}")
    expect_module(helionc, tmp_path, source)


def test_renamed_names_stay_distinct(helionc, tmp_path):
    source = kernel(params="x: torch.Tensor, jnp: float = 1.0, jnp_: float = 0.0",
                    use="x[tile] * jnp + jnp_")
    expect_module(helionc, tmp_path, source)
