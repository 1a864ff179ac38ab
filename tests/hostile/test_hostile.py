"""Hostile inputs (issue 13): each case runs helionc the way an attacker or a careless generator
would, and checks the contract: the exit status, the diagnostic and its location, no output file
after an error, and that a module written after exit 0 imports (and runs where that means
something).

Every file lives in pytest's tmp_path; nothing is written anywhere else.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import subprocess
import sys
import time

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "e2e"))
from e2e_support import helionc_path  # noqa: E402

HELIONC = str(helionc_path()[0])

HEADER = """import torch
import helion
import helion.language as hl


"""


def elementwise_kernel(expression: str, name: str = "k") -> str:
    """A one-loop kernel whose body stores `expression` (in terms of `x[tile]`)."""
    return HEADER + (
        "@helion.kernel()\n"
        f"def {name}(x: torch.Tensor) -> torch.Tensor:\n"
        "    out = torch.empty_like(x)\n"
        "    for tile in hl.tile(x.size()):\n"
        f"        out[tile] = {expression}\n"
        "    return out\n"
    )


BODY_LINE = 10  # the line of `out[tile] = ...` in elementwise_kernel
BODY_COLUMN = 21  # the column where the expression starts


class Run:
    def __init__(self, tmp_path: pathlib.Path, source: str | bytes, *args: str, **kwargs):
        self.input = tmp_path / "kernel.py"
        self.output = tmp_path / "kernel_pallas.py"
        data = source.encode() if isinstance(source, str) else source
        self.input.write_bytes(data)
        self.proc = subprocess.run(
            [*kwargs.get("prefix", []), HELIONC, str(self.input), "-o", str(self.output), *args],
            capture_output=True, text=True, errors="replace", timeout=120)
        self.status = self.proc.returncode
        self.stderr = self.proc.stderr

    def expect_error(self, status: int, message: str, line: int | None = None,
                     column: int | None = None) -> None:
        assert self.status == status, self.stderr
        assert message in self.stderr, self.stderr
        if line is not None:
            match = re.search(rf"{re.escape(str(self.input))}:(\d+):(\d+): error: ", self.stderr)
            assert match, self.stderr
            assert (int(match[1]), int(match[2])) == (line, column), self.stderr
        assert not self.output.exists(), "an output file was written after an error"
        assert [p.name for p in self.output.parent.iterdir()] == ["kernel.py"], "stray files"

    def module(self):
        """The written module, imported (the check that it is valid Python that loads)."""
        assert self.status == 0, self.stderr
        spec = importlib.util.spec_from_file_location(f"hostile_{id(self)}", self.output)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def run_elementwise(module, x: np.ndarray, name: str = "k") -> np.ndarray:
    import jax.numpy as jnp
    return np.asarray(getattr(module, name)(jnp.asarray(x), interpret=True))


X = np.arange(1, 9, dtype=np.float32).reshape(2, 4)


# ---- nesting depth ---------------------------------------------------------------------------

def test_parentheses_past_the_limit_are_refused_at_the_bracket(tmp_path):
    # 9,000 levels crashed the recursive syntax check (SIGSEGV). The 201st open bracket is the
    # one reported: 200 `(` and then the `[` of `x[tile]`, as CPython counts them.
    run = Run(tmp_path, elementwise_kernel("(" * 9000 + "x[tile]" + ")" * 9000))
    run.expect_error(1, "too many nested parentheses", BODY_LINE, BODY_COLUMN + 200)


def test_parentheses_inside_the_limit_compile_and_run(tmp_path):
    run = Run(tmp_path, elementwise_kernel("(" * 199 + "x[tile] * 2" + ")" * 199))
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X * 2)


def test_long_operator_chain_is_refused_at_the_depth_limit(tmp_path):
    run = Run(tmp_path, elementwise_kernel(" + ".join(["x[tile]"] * 5000)))
    run.expect_error(1, "nested too deeply", BODY_LINE, BODY_COLUMN)


def test_deep_unary_chain_is_refused(tmp_path):
    run = Run(tmp_path, elementwise_kernel("-" * 20000 + "x[tile]"))
    run.expect_error(1, "nested too deeply")
    assert re.search(r"kernel\.py:10:\d+: error: ", run.stderr), run.stderr


def test_operator_chain_inside_the_limit_compiles_and_runs(tmp_path):
    run = Run(tmp_path, elementwise_kernel(" + ".join(["x[tile]"] * 300)))
    np.testing.assert_allclose(run_elementwise(run.module(), X), X * 300)


def test_a_module_nested_past_cpython_limit_is_refused_at_its_source_line(tmp_path):
    # 199 calls are inside the input's limit, but the module prints more brackets than the
    # source has (`jnp.abs(...)` and the load of `x[tile]`): CPython would refuse it ("too many
    # nested parentheses"), so it is an error at the kernel line instead of exit 0.
    run = Run(tmp_path, elementwise_kernel("torch.abs(" * 199 + "x[tile]" + ")" * 199))
    run.expect_error(1, "nested too deeply for CPython: too many nested parentheses", BODY_LINE, 9)


def test_nested_calls_inside_cpython_limit_compile_and_import(tmp_path):
    run = Run(tmp_path, elementwise_kernel("torch.abs(" * 60 + "-x[tile]" + ")" * 60))
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X)


# ---- indentation -----------------------------------------------------------------------------

def indented_kernel(columns: int) -> str:
    """elementwise_kernel's kernel inside an `if`, its `def` indented `columns` columns."""
    kernel = elementwise_kernel("x[tile] + 1")[len(HEADER):]
    return HEADER + "if True:\n" + "".join(
        " " * columns + line if line else line for line in kernel.splitlines(keepends=True))


def test_indentation_the_parser_cannot_keep_is_named_as_such(tmp_path):
    # tree-sitter-python's scanner keeps indentation in one byte: 256 columns read as 0, and the
    # file failed as "unexpected `def`". The first line that deep (the loop body) is reported.
    run = Run(tmp_path, indented_kernel(248))
    run.expect_error(1, "this line is indented 256 columns; helionc's parser reads at most 255",
                     BODY_LINE + 1, 257)


def test_deep_indentation_inside_the_limit_compiles_and_runs(tmp_path):
    run = Run(tmp_path, indented_kernel(240))
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X + 1)


# ---- nodes with 65,536 children or more --------------------------------------------------------
# Debian's tree-sitter 0.20.7 kept child counts in 16 bits and corrupted the heap on these
# (a false "no Helion kernels found", then an abort); helionc builds a fixed runtime.

def test_seventy_thousand_top_level_statements_compile(tmp_path):
    # All children of the module (comments no longer are: they are blanked for the scanner).
    run = Run(tmp_path, elementwise_kernel("x[tile]") + "z = 0\n" * 70000)
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X)


def test_a_hundred_thousand_unclosed_parentheses_are_refused_at_the_limit(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]") + "y = " + "(" * 100000 + "\n")
    run.expect_error(1, "too many nested parentheses", 12, 205)


def test_a_call_with_a_hundred_thousand_arguments_outside_the_kernel_compiles(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]") + "y = print(" + "1, " * 100000 + ")\n")
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X)


# ---- literals --------------------------------------------------------------------------------

@pytest.mark.parametrize("literal, expected", [
    ("1e400", np.inf),  # past double range: Python reads inf
    ("1e-400", 0.0),  # below the smallest subnormal: 0.0
    ("5e-324", 0.0),  # a double subnormal, which float32 flushes to 0
])
def test_float_literals_outside_double_range_read_as_python_does(tmp_path, literal, expected):
    run = Run(tmp_path, elementwise_kernel(f"x[tile] * 0 + {literal}"))
    np.testing.assert_array_equal(run_elementwise(run.module(), X), np.full_like(X, expected))


# ---- input limits ----------------------------------------------------------------------------

def test_long_identifier_is_refused_at_the_name(tmp_path):
    name = "v" * 1001
    source = elementwise_kernel("x[tile]").replace(
        "        out[tile] = x[tile]\n", f"        {name} = x[tile]\n        out[tile] = {name}\n")
    Run(tmp_path, source).expect_error(1, "identifier is 1001 bytes long", BODY_LINE, 9)


def test_too_many_kernels_are_refused_at_the_first_one_past_the_limit(tmp_path):
    kernels = [elementwise_kernel("x[tile]", f"k{i}")[len(HEADER):] for i in range(1001)]
    source = HEADER + "\n\n".join(kernels)
    run = Run(tmp_path, source)
    # Each kernel takes 6 lines and one blank line separates them.
    run.expect_error(1, "defines 1001 kernels", len(HEADER.splitlines()) + 1000 * 8 + 2, 5)


def test_config_past_the_size_limit_is_refused(tmp_path):
    # A 50 MB config took 60 s and 6.1 GB before the limit.
    config = tmp_path / "big.yaml"
    config.write_text("schema_version: 1\nkernel: k\n" + "# padding\n" * (500 << 10))
    run = Run(tmp_path, elementwise_kernel("x[tile]"), "--config", str(config))
    assert run.status == 1, run.stderr
    assert "config file `" in run.stderr and "is longer than 4194304 bytes (4 MiB)" in run.stderr
    assert not run.output.exists()


def test_input_past_the_size_limit_is_refused(tmp_path):
    source = elementwise_kernel("x[tile]") + "#" * (64 << 20) + "\n"
    run = Run(tmp_path, source)
    run.expect_error(1, "is longer than 67108864 bytes")


@pytest.mark.skipif(os.environ.get("HELIONC_SANITIZED") == "1",
                    reason="AddressSanitizer maps its shadow memory up front, which no address-"
                    "space limit leaves room for, and its operator new aborts instead of throwing")
def test_out_of_memory_is_an_internal_error_not_an_abort(tmp_path):
    # A 48 MB comment under an address-space limit too small to read it into memory (80 MiB;
    # the compile needs about 120). prlimit, not preexec_fn: forking a process with jax's threads
    # is unsafe.
    source = elementwise_kernel("x[tile]") + "#" * (48 << 20) + "\n"
    run = Run(tmp_path, source, prefix=["prlimit", f"--as={80 << 20}"])
    run.expect_error(3, "internal error: out of memory")


# ---- time linear in the input ----------------------------------------------------------------

@pytest.mark.parametrize("text", ["a comment line", "it's a \"quote\", a \\ and {braces}"])
@pytest.mark.parametrize("where", ["after the kernel", "inside the kernel"])
def test_many_comment_lines_compile_in_linear_time(tmp_path, where, text):
    # 40,000 comment lines took 74 s when children were read by index; inside a kernel, 10,000
    # with quotes took 26 s in tree-sitter's scanner until comments were blanked for it.
    comments = f"# {text}\n" * 40000
    source = elementwise_kernel("x[tile]")
    if where == "after the kernel":
        source += comments
    else:
        source = source.replace("    return out\n", comments.replace("#", "    #") + "    return out\n")
    started = time.monotonic()
    run = Run(tmp_path, source)
    assert time.monotonic() - started < 10
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X)


# ---- command line ----------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_report_write_errors(flag):
    # Standard output is redirected to /dev/full (read-write, never replaced: no `-o` here).
    with open("/dev/full", "w") as full:
        proc = subprocess.run([HELIONC, flag], stdout=full, stderr=subprocess.PIPE, text=True)
    assert proc.returncode == 1
    assert "cannot write to standard output" in proc.stderr


def test_dump_after_an_unknown_pass_is_a_usage_error(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]"), "--dump-after", "NOSUCHPASS")
    run.expect_error(2, "--dump-after: NOSUCHPASS not in")


def test_unknown_kernel_name_points_at_the_file_and_its_kernels(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]"), "--kernel", "nosuch")
    run.expect_error(1, "no kernel named `nosuch` in this file", 1, 1)
    assert f"{run.input}:7:5: note: kernel `k` is defined here" in run.stderr


# ---- syntax and source text ------------------------------------------------------------------

def test_decorated_def_without_colon_points_at_the_end_of_its_line(tmp_path):
    source = elementwise_kernel("x[tile]").replace("-> torch.Tensor:", "-> torch.Tensor")
    run = Run(tmp_path, source)
    run.expect_error(1, "expected `:`", 7, len("def k(x: torch.Tensor) -> torch.Tensor") + 1)


def test_lone_carriage_returns_are_line_breaks(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile] + 1").replace("\n", "\r"))
    np.testing.assert_array_equal(run_elementwise(run.module(), X), X + 1)


def test_lone_carriage_return_diagnostics_use_the_right_line(tmp_path):
    source = elementwise_kernel("x[tile] + undefined_name").replace("\n", "\r")
    Run(tmp_path, source).expect_error(1, "undefined name `undefined_name`", BODY_LINE, 31)


def assert_kernel(message: str) -> str:
    return elementwise_kernel("x[tile]").replace(
        "    out = torch.empty_like(x)\n",
        f"    assert x.size(0) == 3, {message}\n    out = torch.empty_like(x)\n")


def test_f_string_assert_message_reads_as_python_prints_it(tmp_path):
    # Interpolated as Python would when the assert fails: the field's value, its conversion and
    # format spec (with a field nested in it); doubled braces as single ones.
    run = Run(tmp_path, assert_kernel(
        'f"rows: {x.size(0)} of {x.size(1)!r:>4}, {x.size(0) * 2:03d} {{not a field}} '
        '[{x.size(1):>{x.size(0)}}]"'))
    module = run.module()
    with pytest.raises(AssertionError,
                       match=re.escape("rows: 2 of    4, 004 {not a field} [ 4]")):
        run_elementwise(module, X)


def test_f_string_assert_message_with_a_self_documenting_field_is_refused(tmp_path):
    run = Run(tmp_path, assert_kernel('f"{x.size(0)=}"'))
    run.expect_error(1, "an f-string assert message with a `{x=}` field", 8, 28)


def test_bytes_assert_message_raises_assertion_error(tmp_path):
    run = Run(tmp_path, assert_kernel('b"bad \\x00 rows"'))
    module = run.module()
    with pytest.raises(AssertionError, match=re.escape("b'bad \\x00 rows'")):
        run_elementwise(module, X)


# ---- --emit report ---------------------------------------------------------------------------

def test_report_refuses_sizes_no_tpu_array_can_have(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]"), "--emit", "report",
              "--shapes", "x=4611686018427387904x4611686018427387904:f32")
    run.expect_error(2, "no TPU array is that large")


def test_report_with_the_largest_accepted_sizes_does_not_overflow(tmp_path):
    run = Run(tmp_path, elementwise_kernel("x[tile]"), "--emit", "report",
              "--shapes", "x=16777216x16384:f32")
    assert run.status == 0, run.stderr
    assert run.output.read_text()
