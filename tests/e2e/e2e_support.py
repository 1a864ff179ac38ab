"""Shared plumbing of the end-to-end tests: shape lists, dtypes, inputs, tolerances, kernels.

Nothing here knows how helionc works inside. It reads the samples the way a user would (their
`.shapes` sidecars and, with `ast`, the kernels' signatures), makes random inputs, and compares
results against the numpy references of the samples' expectation files (references.py).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import glob
import math
import os
import pathlib
import zlib

import jax
import ml_dtypes
import numpy as np

from sample_files import SAMPLES_DIR  # noqa: F401 - re-exported: the tests read samples/ through it

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_HELIONC = PROJECT_ROOT / "build" / "src" / "driver" / "helionc"

# ---------------------------------------------------------------------------------------------
# dtypes

BFLOAT16 = np.dtype(ml_dtypes.bfloat16)
FLOAT8_E4M3FN = np.dtype(ml_dtypes.float8_e4m3fn)
FLOAT8_E5M2 = np.dtype(ml_dtypes.float8_e5m2)

# Spellings accepted in shape lists (product.md: `x=1024x1024:bf16`), PyTorch and numpy names.
DTYPES: dict[str, np.dtype] = {
    "bf16": BFLOAT16, "bfloat16": BFLOAT16,
    "f16": np.dtype(np.float16), "float16": np.dtype(np.float16), "half": np.dtype(np.float16),
    "f32": np.dtype(np.float32), "float32": np.dtype(np.float32), "float": np.dtype(np.float32),
    "i8": np.dtype(np.int8), "int8": np.dtype(np.int8),
    "u8": np.dtype(np.uint8), "uint8": np.dtype(np.uint8),
    "i16": np.dtype(np.int16), "int16": np.dtype(np.int16),
    "i32": np.dtype(np.int32), "int32": np.dtype(np.int32), "int": np.dtype(np.int32),
    "bool": np.dtype(np.bool_),
    "f8e4m3": FLOAT8_E4M3FN, "float8_e4m3fn": FLOAT8_E4M3FN,
    "f8e5m2": FLOAT8_E5M2, "float8_e5m2": FLOAT8_E5M2,
}

_FLOAT_RANK = {FLOAT8_E4M3FN: 0, FLOAT8_E5M2: 0, np.dtype(np.float16): 1, BFLOAT16: 1, np.dtype(np.float32): 2}


def is_float(dtype: np.dtype) -> bool:
    return dtype in _FLOAT_RANK


def torch_promote(a: np.dtype, b: np.dtype) -> np.dtype:
    """`torch.promote_types` for the 32-bit-and-narrower dtypes the samples use.

    Written from PyTorch's documented lattice, not from numpy's (which differs: numpy has no
    bfloat16 and promotes int32 + float16 to float64).
    """
    a, b = np.dtype(a), np.dtype(b)
    if a == b:
        return a
    if is_float(a) and is_float(b):
        # an 8-bit float gives way to the other float (JAX's rule: PyTorch refuses to promote)
        if (_FLOAT_RANK[a] == 0) != (_FLOAT_RANK[b] == 0):
            return b if _FLOAT_RANK[a] == 0 else a
        # f16 + bf16 -> f32 (neither holds the other); anything + f32 -> f32
        return np.dtype(np.float32)
    if is_float(a):
        return a
    if is_float(b):
        return b
    if a == np.bool_:
        return b
    if b == np.bool_:
        return a
    # both integers: the wider one; uint8 with int8 needs int16
    if a.kind == b.kind:
        return a if a.itemsize >= b.itemsize else b
    signed, unsigned = (a, b) if a.kind == "i" else (b, a)
    return signed if signed.itemsize > unsigned.itemsize else np.dtype(np.int16)


# Tolerances by the dtype of the result (assert_allclose: |got - want| <= atol + rtol * |want|).
# The references compute in float64 and round once to the result dtype. float32 is tight: a
# few ulp of XLA's transcendental approximations. bfloat16 is loose: the kernel may round after
# every operation (PyTorch eager does; 1 ulp of bf16 is 2**-8 relative), and several roundings
# add up. float16 sits between. The 8-bit floats allow one ulp (2**-3 relative for e4m3fn's
# three mantissa bits, 2**-2 for e5m2's two): a value near a rounding boundary may land on either
# side when the kernel's float32 differs from the reference's float64 in the last bit. Integers
# and bools must match exactly.
TOLERANCES: dict[np.dtype, tuple[float, float]] = {
    FLOAT8_E4M3FN: (0.125, 2.0**-9),
    FLOAT8_E5M2: (0.25, 2.0**-16),
    np.dtype(np.float32): (1e-5, 1e-5),
    np.dtype(np.float16): (4e-3, 4e-3),
    BFLOAT16: (2e-2, 2e-2),
}

# ---------------------------------------------------------------------------------------------
# shape lists


@dataclasses.dataclass(frozen=True)
class TensorSpec:
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype

    def __str__(self) -> str:
        dims = "x".join(str(d) for d in self.shape)
        return f"{self.name}={dims}:{dtype_short(self.dtype)}"


def dtype_short(dtype: np.dtype) -> str:
    for short in ("bf16", "f16", "f32", "i8", "u8", "i16", "i32", "bool", "f8e4m3", "f8e5m2"):
        if DTYPES[short] == dtype:
            return short
    raise ValueError(f"no short name for {dtype}")


@dataclasses.dataclass(frozen=True)
class Call:
    """One call of a kernel: its tensor arguments in the order written."""

    tensors: tuple[TensorSpec, ...]

    def __str__(self) -> str:
        return ",".join(str(t) for t in self.tensors)

    @property
    def rank(self) -> int:
        return max(len(t.shape) for t in self.tensors)


def parse_call(spec: str) -> Call:
    """Parse one call of the `--shapes` format: `x=1024x1024:bf16,y=1024:bf16`."""
    tensors = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, rest = item.partition("=")
        dims, sep2, dtype = rest.partition(":")
        if not sep or not sep2 or not name.strip():
            raise ValueError(f"bad tensor spec {item!r} in {spec!r} (want name=AxBxC:dtype)")
        if dtype.strip() not in DTYPES:
            raise ValueError(f"unknown dtype {dtype!r} in {spec!r}")
        shape = tuple(int(d) for d in dims.strip().split("x")) if dims.strip() else ()
        tensors.append(TensorSpec(name.strip(), shape, DTYPES[dtype.strip()]))
    if not tensors:
        raise ValueError(f"empty call {spec!r}")
    return Call(tuple(tensors))


def parse_shapes_text(text: str) -> list[Call]:
    """A shape list: calls separated by newlines or `;`, `#` starts a comment."""
    calls = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        for part in line.split(";"):
            if part.strip():
                calls.append(parse_call(part))
    return calls


def read_shapes_file(path: pathlib.Path) -> list[Call]:
    return parse_shapes_text(path.read_text())


# ---------------------------------------------------------------------------------------------
# kernels as written in the samples (read with ast, never imported: no torch here)


@dataclasses.dataclass(frozen=True)
class KernelSignature:
    """A kernel's parameters as the generated public function must have them.

    A parameter whose default is a lambda (Helion's `epilogue=lambda acc, tile: acc`) is compiled
    into the kernel by helionc and is not a parameter of the generated function: it is listed in
    `inlined`, not in `params`.
    """

    name: str
    params: tuple[str, ...]
    defaults: dict  # parameter name -> literal default value
    annotations: dict  # parameter name -> annotation source text
    inlined: tuple[str, ...] = ()  # parameters with a lambda default


def _is_kernel_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id == "helion"
        and target.attr in ("kernel", "jit", "aot_kernel")
    )


def _default_value(node: ast.expr):
    """A parameter's default: a literal, or a dtype (`torch.float32`: the module's default is the
    jnp scalar type of the same name)."""
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch"
            and node.attr in DTYPES):
        return getattr(jax.numpy, node.attr)
    return ast.literal_eval(node)


def kernels_in(path: pathlib.Path) -> list[KernelSignature]:
    """The `@helion.kernel`/`@helion.jit` functions of a sample, in file order (at the top level
    or, as helionc finds them too, inside functions)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in sorted((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)),
                       key=lambda n: n.lineno):
        if isinstance(node, ast.FunctionDef) and any(_is_kernel_decorator(d) for d in node.decorator_list):
            args = node.args.args
            with_defaults = list(zip(args[len(args) - len(node.args.defaults):], node.args.defaults))
            inlined = tuple(a.arg for a, d in with_defaults if isinstance(d, ast.Lambda))
            params = tuple(a.arg for a in args if a.arg not in inlined)
            defaults = {a.arg: _default_value(d) for a, d in with_defaults if a.arg not in inlined}
            annotations = {a.arg: ast.unparse(a.annotation) if a.annotation else "" for a in args}
            found.append(KernelSignature(node.name, params, defaults, annotations, inlined))
    return found


# ---------------------------------------------------------------------------------------------
# inputs


def seed_for(*parts: object) -> int:
    return zlib.crc32("|".join(str(p) for p in parts).encode())


def normal(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    if is_float(dtype):
        return rng.standard_normal(shape, dtype=np.float32).astype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    return rng.integers(-100, 100, size=shape, endpoint=True).astype(dtype)


def uniform(lo: float, hi: float):
    def make(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
        return rng.uniform(lo, hi, size=shape).astype(np.float32).astype(dtype)

    return make


def param_of(tensor_name: str) -> str:
    """The parameter a call's tensor belongs to: `xs` for `xs.0`, an element of a list, tuple or
    dict parameter (`--shapes` names elements so), else the name itself."""
    return tensor_name.split(".", 1)[0]


def group_packs(kernel: KernelSignature, call: Call, values: dict) -> dict:
    """The call's values by parameter: the elements of a pack parameter (`xs.0`, `xs.1`,
    `d.key`) gathered into the tuple, list or dict its annotation names."""
    grouped = {}
    for tensor in call.tensors:
        param, _, element = tensor.name.partition(".")
        if not element:
            grouped[param] = values[tensor.name]
            continue
        grouped.setdefault(param, {})[int(element) if element.isdigit() else element] = values[tensor.name]
    for param, elements in grouped.items():
        if not isinstance(elements, dict) or param not in kernel.params:
            continue
        annotation = kernel.annotations.get(param, "").replace("typing.", "")
        if annotation.startswith(("dict", "Dict", "Mapping")):
            continue
        ordered = [elements[i] for i in sorted(elements)]
        grouped[param] = ordered if annotation.startswith(("list", "List", "Sequence")) else tuple(ordered)
    return grouped


def make_inputs(call: Call, generators: dict, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {t.name: generators.get(t.name, normal)(rng, t.shape, t.dtype) for t in call.tensors}


def f64(a: np.ndarray) -> np.ndarray:
    """Exact widening (bf16 and f16 values are all representable in float64)."""
    return np.asarray(a).astype(np.float64)


def assert_matches(got, want: np.ndarray, what: str, tolerance: dict | None = None) -> None:
    got = np.asarray(got)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    assert got.dtype == want.dtype, f"{what}: dtype {got.dtype}, expected {want.dtype}"
    if not is_float(want.dtype):
        mismatch = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        assert mismatch.size == 0, (
            f"{what}: {mismatch.size} of {want.size} elements differ; first at flat index "
            f"{mismatch[0]}: got {got.reshape(-1)[mismatch[0]]}, expected {want.reshape(-1)[mismatch[0]]}"
        )
        return
    rtol, atol = (tolerance or {}).get(want.dtype, TOLERANCES[want.dtype])
    np.testing.assert_allclose(f64(got), f64(want), rtol=rtol, atol=atol, err_msg=what)


class CompileError(Exception):
    """helionc failed (or its module could not be imported); the message says how."""


def helionc_path() -> tuple[pathlib.Path, bool]:
    """The compiler to test and whether it was named explicitly (env HELIONC)."""
    explicit = os.environ.get("HELIONC")
    if explicit:
        path = pathlib.Path(explicit)
        return (path if path.is_absolute() else PROJECT_ROOT / path), True
    return DEFAULT_HELIONC, False


# ---------------------------------------------------------------------------------------------
# The real TPU compiler without a TPU (pallas-target.md §4)
#
# libtpu (jax[tpu]) compiles for a TPU topology on any x86_64 host: Mosaic's layout passes and
# the TPU backend run as they would at a kernel's first call on a TPU, so a refusal here is a
# module a TPU would refuse.

# helionc's target names and the topology each compiles for (one chip is enough).
TPU_TOPOLOGIES = {
    "tpu-v7x": "tpu7x:2x2x1",
    "tpu-v6e": "v6e:2x2",
    "tpu-v5e": "v5e:2x2",
    "tpu-v5p": "v5p:2x2x1",
    "tpu-v4": "v4:2x2x1",
}
DEFAULT_GENERATION = "tpu-v7x"
# The generation whose TPU info Pallas consults while tracing; "TPU7x" is tpu-v7x. Other kinds:
# "TPU v4", "TPU v5 lite", "TPU v5", "TPU v6 lite".
TPU_DEVICE_KIND = "TPU7x"

# libtpu takes /tmp/libtpu_lockfile so that two processes never drive one TPU's chips. A host
# without TPU chips has nothing to share, and compiling needs no chip: let every test process
# (pytest-xdist workers, the compile runner) load it. Where chips are present, keep the lock.
if not (glob.glob("/dev/accel*") or glob.glob("/dev/vfio/[0-9]*")):
    os.environ.setdefault("ALLOW_MULTIPLE_LIBTPU_LOAD", "1")


@functools.cache
def tpu_device(generation: str = DEFAULT_GENERATION):
    """The first device of a topology of `generation` (needs libtpu, not a TPU)."""
    from jax.experimental import topologies

    return topologies.get_topology_desc(platform="tpu", topology_name=TPU_TOPOLOGIES[generation]).devices[0]


@contextlib.contextmanager
def tpu_tracing(device_kind: str = TPU_DEVICE_KIND):
    """Trace as if on a TPU of `device_kind`.

    Without this, `emit_pipeline`, rank-1 VMEM blocks and a few primitives ask for the TPU
    generation while tracing and fail on CPU with "Unsupported TPU device kind: cpu". Checked
    on jax 0.10.2 (test_harness.py).
    """
    mesh = jax.sharding.AbstractMesh(
        (), (), abstract_device=jax.sharding.AbstractDevice(device_kind, 1, "tpu")
    )
    with jax.sharding.use_abstract_mesh(mesh):
        yield


class TpuCompiled:
    """What the TPU compiler made of one call: the StableHLO it compiled and the executable."""

    def __init__(self, text: str, compiled):
        self.text = text
        self.compiled = compiled

    def __contains__(self, needle: str) -> bool:  # `"tpu_custom_call" in compile_for_tpu(...)`
        return needle in self.text


def compile_for_tpu(fn, *args: jax.ShapeDtypeStruct, generation: str = DEFAULT_GENERATION) -> TpuCompiled:
    """Compile `fn` (called with `args`) for one chip of `generation`, as a TPU host would.

    Traces inside the abstract mesh of that generation, lowers every pallas_call to Mosaic and
    runs Mosaic and the TPU backend: a kernel the TPU refuses (layouts, alignment, VMEM) raises
    here with the compiler's message.
    """
    device = tpu_device(generation)
    sharding = jax.sharding.SingleDeviceSharding(device)
    placed = jax.tree.map(lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=sharding), args)
    with tpu_tracing(device.device_kind):
        lowered = jax.jit(fn).lower(*placed)
        text = lowered.as_text()
        return TpuCompiled(text, lowered.compile())


def lower_for_tpu(fn, *args: jax.ShapeDtypeStruct) -> TpuCompiled:
    """The tests' TPU check: a real compile for the default generation (compile_for_tpu)."""
    return compile_for_tpu(fn, *args)


# ---------------------------------------------------------------------------------------------
# what the interpreter can afford

# The interpreter copies whole operands on every grid step, so its time grows with
# (grid steps x tensor size): a 4096x4096 call with 8x128 blocks takes minutes. Calls with a
# larger tensor than this are lowered for TPU but not run.
MAX_INTERPRET_ELEMENTS = 1 << 20


def interpretable(call: Call) -> bool:
    return all(math.prod(t.shape) <= MAX_INTERPRET_ELEMENTS for t in call.tensors)


def pallas_calls(jaxpr) -> list:
    """The pallas_call equations of a (closed) jaxpr, in order, also those nested in other
    equations' jaxprs (the public function is a custom_vjp, whose forward pass is one)."""
    found = []
    for eqn in getattr(jaxpr, "jaxpr", jaxpr).eqns:
        if eqn.primitive.name == "pallas_call":
            found.append(eqn)
            continue
        for value in eqn.params.values():
            for inner in value if isinstance(value, (tuple, list)) else (value,):
                if hasattr(inner, "eqns") or hasattr(getattr(inner, "jaxpr", None), "eqns"):
                    found.extend(pallas_calls(inner))
    return found
