"""Every sample, compiled with every config: numerics against numpy, and lowering for TPU.

Test ids read `<sample>-<config>-<call>[-<scalars>]`, e.g.
`test_matches_reference[add-b8x128-x=1000x300:f32,y=300:f32]`, so a failure names the exact
kernel, block sizes and shapes. For kernels with inner loops the config id names the
`pallas_loop_type` strategies too: `matmul-b8x128x128-grid-x=...`. Rerun one with `pytest 'tests/e2e/test_samples.py::<id>'`.
"""

from __future__ import annotations

import ast
import functools
import inspect
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental.pallas import tpu as pltpu

from e2e_support import (
    DEFAULT_GENERATION,
    TPU_TOPOLOGIES,
    CompileError,
    SAMPLES_DIR,
    Call,
    assert_matches,
    group_packs,
    interpretable,
    kernels_in,
    make_inputs,
    param_of,
    parse_call,
    read_shapes_file,
    seed_for,
)
from covering import FULL_PRODUCT, cover_matrix, elements
from expectations import LOOP_STRATEGIES, SampleSpec
from references import SAMPLES, calls_of


def kernel_of(spec: SampleSpec):
    kernels = {k.name: k for k in kernels_in(SAMPLES_DIR / f"{spec.name}.py")}
    return kernels[spec.kernel]


def scalars_id(scalars: dict) -> str:
    # A callable argument (a callable parameter passed at run time) by its name.
    return ",".join(f"{k}={v.__name__ if callable(v) else v}" for k, v in scalars.items())


GENERATIONS = tuple(TPU_TOPOLOGIES)


def _case_id(spec: SampleSpec, config_id: str, call: Call, scalars: dict, generation: str = DEFAULT_GENERATION) -> str:
    case_id = f"{spec.name}-{config_id}-{call}"
    if scalars:
        case_id += f"-{scalars_id(scalars)}"
    if generation != DEFAULT_GENERATION:
        case_id += f"-{generation}"
    return case_id


def _run_cases():
    """(spec, config_id, call, scalars): a covering of sample x config (x loop types) x the
    calls small enough to interpret (covering.py)."""
    cases = []
    for spec in SAMPLES:
        calls = calls_of(spec)
        runnable = [i for i, call in enumerate(calls) if interpretable(call)]
        for config_id, k, _ in cover_matrix(spec.variants(), [calls[i] for i in runnable]):
            i = runnable[k]
            scalars = spec.scalars[i % len(spec.scalars)]
            cases.append(pytest.param(spec, config_id, calls[i], scalars,
                                      id=_case_id(spec, config_id, calls[i], scalars)))
    return cases


def _lower_cases():
    """(spec, config_id, call, scalars, generation): a covering of sample x config (x loop
    types) x every call x every TPU generation, each case compiled for real."""
    cases = []
    for spec in SAMPLES:
        calls = calls_of(spec)
        for config_id, i, generation in cover_matrix(spec.variants(), calls, GENERATIONS):
            scalars = spec.scalars[i % len(spec.scalars)]
            cases.append(pytest.param(spec, config_id, calls[i], scalars, generation,
                                      id=_case_id(spec, config_id, calls[i], scalars, generation)))
    return cases


RUN_CASES = _run_cases()
LOWER_CASES = _lower_cases()


def _default_calls(spec: SampleSpec) -> list[Call]:
    """The first two sidecar calls small enough to interpret and the first extra shape."""
    calls = [c for c in read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") if interpretable(c)][:2]
    return calls + [parse_call(s) for s in spec.extra_shapes[:1]]


def _default_cases():
    """Without --config: every sample's default calls, run and compiled for the default
    generation (test_default_config); the first call of each is the quick tier's."""
    return [pytest.param(spec, call, id=f"{spec.name}-{call}", marks=[pytest.mark.quick] if i == 0 else [])
            for spec in SAMPLES for i, call in enumerate(_default_calls(spec))]


def _default_generation_cases():
    """Without --config, for each other generation: one of the sample's default calls, a
    different one per generation where there are several (all of them under
    HELIONC_E2E_FULL=1; test_default_config_generations)."""
    cases = []
    others = [g for g in GENERATIONS if g != DEFAULT_GENERATION]
    for spec in SAMPLES:
        calls = _default_calls(spec)
        for n, generation in enumerate(others):
            for call in calls if FULL_PRODUCT else [calls[n % len(calls)]]:
                cases.append(pytest.param(spec, call, generation, id=f"{spec.name}-{call}-{generation}"))
    return cases


DEFAULT_CASES = _default_cases()
DEFAULT_GENERATION_CASES = _default_generation_cases()


class Case:
    """One call of one kernel: ordered arguments, inputs and the expected outputs."""

    def __init__(self, spec: SampleSpec, call: Call, scalars: dict):
        self.spec = spec
        self.call = call
        kernel = kernel_of(spec)
        self.kernel = kernel
        # A pack parameter's elements are named `xs.0`, `d.key` (param_of: `xs`, `d`).
        given = {param_of(t.name) for t in call.tensors}
        unknown = given - set(kernel.params)
        assert not unknown, f"shape list names {sorted(unknown)}, not parameters of {kernel.name}{kernel.params}"
        # tensors positionally, in the kernel's parameter order; scalars by keyword
        self.params = [p for p in kernel.params if p in given]
        # A parameter without a default that no shape gives (a callable passed at run time)
        # comes from the spec's first scalar variant when the test gives none.
        needed = [p for p in kernel.params if p not in given and p not in kernel.defaults and p not in scalars]
        scalars = {**{p: spec.scalars[0][p] for p in needed if p in spec.scalars[0]}, **scalars}
        self.scalars = scalars
        missing = [p for p in needed if p not in scalars]
        assert not missing, f"shape list gives no {missing} for {kernel.name}"
        self.all_scalars = {**{k: v for k, v in kernel.defaults.items() if k not in given}, **scalars}
        self.inputs = make_inputs(call, spec.inputs, seed_for(spec.name, call))

    def _by_param(self, values: dict) -> list:
        grouped = group_packs(self.kernel, self.call, values)
        return [grouped[p] for p in self.params]

    def arrays(self):
        return self._by_param({name: jnp.asarray(a) for name, a in self.inputs.items()})

    def structs(self):
        return self._by_param({t.name: jax.ShapeDtypeStruct(t.shape, t.dtype) for t in self.call.tensors})

    def expected(self):
        return self.spec.reference(**group_packs(self.kernel, self.call, self.inputs), **self.all_scalars)

    def check(self, result) -> None:
        expected = self.expected()
        if len(expected) == 1 and not self.spec.returns_tuple:
            assert not isinstance(result, (tuple, list)), (
                f"{self.spec.kernel} returns one tensor but the module returned {type(result).__name__}"
            )
            result = (result,)
        else:
            assert isinstance(result, tuple), (
                f"{self.spec.kernel} returns a tuple of {len(expected)} but the module returned {type(result).__name__}"
            )
            assert len(result) == len(expected), f"{len(result)} outputs, expected {len(expected)}"
        for i, (got, want) in enumerate(zip(result, expected)):
            assert isinstance(got, jax.Array), f"output {i} is a {type(got).__name__}, not a jax.Array"
            assert_matches(got, want, f"{self.spec.kernel}({self.call}) output {i}", self.spec.tolerance)


def public_function(module, spec: SampleSpec):
    fn = getattr(module, spec.kernel, None)
    assert callable(fn), f"the generated module has no public function {spec.kernel}"
    return fn


def compiled(helionc, spec: SampleSpec, config_id: str | None):
    """The public function compiled with variant `config_id` (None: no --config)."""
    if config_id is None:
        return public_function(helionc.module(spec.name, spec.kernel, None), spec)
    variant = spec.variants()[config_id]
    module = helionc.module(spec.name, spec.kernel, config_id, variant.block_sizes, variant.loop_types)
    return public_function(module, spec)


def first_variant(spec: SampleSpec) -> str:
    return next(iter(spec.variants()))


# Strategies that copy inputs from HBM by DMA: test_dma_races.py runs every combination with one
# under the TPU simulator, race detector on, on the same call and config.
STREAMING = ("fori_loop", "emit_pipeline")


def _strategy_cases():
    """(spec, config_id): the first block config with every loop-type combination that streams
    nothing (samples without inner loops: their first config; the id is then the sample's name
    alone). The streaming ones run in test_dma_races.py, under the same simulator."""
    cases = []
    for spec in SAMPLES:
        first = next(iter(spec.configs))
        if not spec.loop_types:
            cases.append(pytest.param(spec, first, id=spec.name))
            continue
        for types in spec.loop_types:
            if any(t in STREAMING for t in types):
                continue
            cases.append(pytest.param(spec, f"{first}-{'-'.join(types)}", id=f"{spec.name}-{'-'.join(types)}"))
    return cases


STRATEGY_CASES = _strategy_cases()


@pytest.mark.parametrize("spec,config_id,call,scalars", RUN_CASES)
def test_matches_reference(helionc, spec, config_id, call, scalars):
    """Under jax.jit (static scalars bound with functools.partial), as most users call it; one
    XLA program per case also compiles faster than the eager call's program per launch. Eager
    calls run in test_default_config, test_tpu_interpret_mode and test_dma_races. A kernel whose
    output shape needs an array's value runs eagerly (test_host_values_under_jit)."""
    fn = compiled(helionc, spec, config_id)
    case = Case(spec, call, scalars)
    if spec.host_values:
        case.check(fn(*case.arrays(), **scalars, interpret=True))
        return
    arrays = case.arrays()
    program = jax.jit(functools.partial(fn, **scalars, interpret=True)).lower(*arrays)
    case.check(program.compile(compiler_options=interpreter_compile_options(call))(*arrays))


# The e2e stage compiles the interpreter's programs at XLA's lowest optimisation level (tests/
# e2e/CMakeLists.txt): they are many, small and run once. A call this large spends longer in
# its arithmetic than in the compile (bf16 code unoptimised is ten times slower), so it compiles
# at XLA's default level.
OPTIMISED_CALL_ELEMENTS = 1 << 17


def interpreter_compile_options(call: Call) -> dict:
    return {"xla_backend_optimization_level": 3} if elements(call) >= OPTIMISED_CALL_ELEMENTS else {}


# The precise error of a module whose host code needs an array's value (`.item()` sizing an
# output) while JAX traces it (templates/helper_item.py.tmpl).
HOST_VALUE_ERROR = "needs the array's value on the host"


def assert_launches(spec: SampleSpec, lowered: str) -> None:
    """A TPU export holds Mosaic kernels (tpu_custom_call), and none for a host-only kernel."""
    if spec.host_only:
        assert "tpu_custom_call" not in lowered, "a kernel without a device loop launched a Mosaic kernel"
    else:
        assert "tpu_custom_call" in lowered, "the export holds no Mosaic kernel (tpu_custom_call)"


@pytest.mark.parametrize("spec,config_id,call,scalars,generation", LOWER_CASES)
def test_lowers_for_tpu(helionc, tpu_lower, spec, config_id, call, scalars, generation):
    """The TPU compiler of `generation` accepts the kernel (a real compile, libtpu)."""
    fn = compiled(helionc, spec, config_id)
    case = Case(spec, call, scalars)
    # interpret=False explicitly: on a CPU host, the default (None) would pick the interpreter.
    lower = lambda: tpu_lower(lambda *args: fn(*args, **scalars, interpret=False), *case.structs(),
                              generation=generation)
    if spec.host_values:  # exporting traces the host code, which has no array values then
        with pytest.raises(TypeError, match=HOST_VALUE_ERROR):
            lower()
        return
    assert_launches(spec, lower())


@pytest.mark.parametrize("spec,call", DEFAULT_CASES)
def test_default_config(helionc, tpu_lower, spec, call):
    """No --config: the built-in defaults must be legal for TPU and correct for any shape."""
    fn = compiled(helionc, spec, None)
    case = Case(spec, call, {})
    # interpret left at its default: None means "interpret unless the backend is a TPU"
    case.check(fn(*case.arrays(), **case.scalars))
    if spec.host_values:
        return  # not exportable (test_lowers_for_tpu checks the error)
    lower = lambda *args: fn(*args, **case.scalars, interpret=False)
    assert_launches(spec, tpu_lower(lower, *case.structs()))


@pytest.mark.parametrize("spec,call,generation", DEFAULT_GENERATION_CASES)
def test_default_config_generations(helionc, tpu_lower, spec, call, generation):
    """No --config, for every other TPU generation: the module a user gets compiles there too
    (a printer choice that only one generation's layout rules accept shows up here)."""
    if spec.host_values:
        pytest.skip("not exportable: test_lowers_for_tpu checks its precise error")
    fn = compiled(helionc, spec, None)
    case = Case(spec, call, {})
    lower = lambda *args: fn(*args, **case.scalars, interpret=False)
    assert_launches(spec, tpu_lower(lower, *case.structs(), generation=generation))


def small_call(spec: SampleSpec) -> Call:
    """The smallest call of at least 1000 elements (still several blocks, quick to interpret)."""
    return min(
        (c for c in calls_of(spec) if math.prod(c.tensors[0].shape) >= 1000),
        key=lambda c: math.prod(c.tensors[0].shape),
    )


def simulator_call(spec: SampleSpec) -> Call:
    """The call the TPU simulator runs (SampleSpec.simulator_call)."""
    return parse_call(spec.simulator_call) if spec.simulator_call else small_call(spec)


@pytest.mark.parametrize("spec", [s for s in SAMPLES if s.host_values], ids=lambda s: s.name)
def test_host_values_under_jit(helionc, spec):
    """A kernel whose output shape depends on data raises a precise error under jax.jit, not
    JAX's (every other sample runs under jit in test_matches_reference)."""
    fn = compiled(helionc, spec, first_variant(spec))
    scalars = spec.scalars[-1]
    case = Case(spec, small_call(spec), scalars)
    jitted = jax.jit(functools.partial(fn, **scalars, interpret=True))
    with pytest.raises(TypeError, match=HOST_VALUE_ERROR):
        jitted(*case.arrays())


@pytest.mark.parametrize("spec,config_id", STRATEGY_CASES)
def test_tpu_interpret_mode(helionc, spec, config_id):
    """interpret="tpu": Pallas's TPU simulation (HBM/VMEM/SMEM, DMAs, out-of-bounds checks),
    once per inner-loop strategy combination that streams nothing (windows of resident blocks,
    scratch); test_dma_races.py simulates the others."""
    fn = compiled(helionc, spec, config_id)
    case = Case(spec, simulator_call(spec), {})
    try:
        case.check(fn(*case.arrays(), **case.scalars, interpret="tpu"))
    finally:
        pltpu.reset_tpu_interpret_mode_state()


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_signature(helionc, spec):
    """Same parameters (names, order, defaults) as the kernel, plus keyword-only interpret=None.

    A parameter with a lambda default (`epilogue=lambda acc, tile: acc`) is compiled in and must
    not appear at all: a callable the generated function would ignore must not be accepted.
    """
    fn = compiled(helionc, spec, None)
    kernel = kernel_of(spec)
    params = list(inspect.signature(fn).parameters.values())
    for name in kernel.inlined:
        assert name not in {p.name for p in params}, f"{name} is compiled in, not a parameter"
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert [p.name for p in positional] == list(kernel.params)
    for p in positional:
        if p.name in kernel.defaults:
            assert p.default == kernel.defaults[p.name], f"default of {p.name}"
            assert type(p.default) is type(kernel.defaults[p.name]), f"type of the default of {p.name}"
        else:
            assert p.default is inspect.Parameter.empty, f"{p.name} has a default the kernel lacks"
    interpret = [p for p in params if p.name == "interpret"]
    assert interpret and interpret[0].kind == inspect.Parameter.KEYWORD_ONLY, "no keyword-only interpret"
    assert interpret[0].default is None


def source_docstring(spec: SampleSpec) -> str | None:
    tree = ast.parse((SAMPLES_DIR / f"{spec.name}.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == spec.kernel:
            return ast.get_docstring(node)
    return None


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_docstring_and_type_hints(helionc, spec):
    """help() shows the kernel's docstring, where it was compiled from, every parameter and the
    reference to compare with; array parameters are annotated jax.Array."""
    fn = compiled(helionc, spec, None)
    doc = inspect.getdoc(fn)
    assert doc, "the public function has no docstring"
    kernel_doc = source_docstring(spec)
    if kernel_doc and "\\" not in kernel_doc:  # escapes are shown as spelled, not decoded
        assert doc.startswith(kernel_doc + "\n\n"), doc
    assert f" from samples/{spec.name}.py:" in doc and "compiled by helionc" in doc.lower(), doc
    args = doc.split("Args:\n", 1)[1]
    kernel = kernel_of(spec)
    for name in kernel.params:
        if name in kernel.annotations and kernel.annotations[name] in ("torch.Tensor",):
            assert f"    {name}: jax.Array" in args, args
    assert f"`reference_{spec.kernel}` in this module" in doc
    params = inspect.signature(fn).parameters
    for name in kernel.params:
        if kernel.annotations.get(name) == "torch.Tensor":
            assert params[name].annotation is jax.Array, name


# numpy, a dependency of jax, only where a kernel passes tiles to a callable parameter (tiles
# that index arrays on the host are numpy arrays).
ALLOWED_IMPORTS = ("jax", "functools", "math", "numpy", "__future__")


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_module_needs_only_jax(helionc, spec):
    """The generated module imports jax (and functools/math/numpy) only: no torch, no helion."""
    compiled(helionc, spec, None)  # a compile error fails here, with helionc's message
    path = helionc.compile_once(spec.name, spec.kernel, None)
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in ALLOWED_IMPORTS, f"{path.name}:{node.lineno}: imports {name}"


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_output_is_deterministic(helionc, spec):
    """The same input and config give byte-identical modules."""
    config_id = first_variant(spec)
    variant = spec.variants()[config_id]
    outputs = []
    for _ in range(2):
        try:
            path = helionc.compile(spec.name, spec.kernel, config_id, variant.block_sizes, variant.loop_types)
            outputs.append(path.read_bytes())
        except CompileError as e:
            pytest.fail(str(e), pytrace=False)
    assert outputs[0] == outputs[1]


# The strategies helionc generates and the samples test; test_loop_types_cover_the_strategies
# asks every sample to list each of them wherever it applies.
TESTED_STRATEGIES = ("unroll", "grid", "emit_pipeline", "fori_loop")

LOOP_SAMPLES = [s for s in SAMPLES if s.loop_types]


def applicable_strategies(helionc, spec: SampleSpec) -> list[set[str]]:
    """Per inner loop of the kernel, the strategies `--dump-after plan-launches` says apply."""
    # The module goes to a temporary file: never a system path (the tests run as root).
    module = helionc.workdir / f"{spec.name}__{spec.kernel}__plan_dump_pallas.py"
    proc = helionc.run([f"samples/{spec.name}.py", "--kernel", spec.kernel, "--dump-after", "plan-launches",
                        "-o", str(module)])
    assert proc.returncode == 0, proc.stderr
    loops = []
    for line in (proc.stdout + proc.stderr).splitlines():
        line = line.strip()
        if not line.startswith("inner loop "):
            continue
        verdicts = line.split(":", 1)[1]
        applies = set()
        for item in verdicts.split(";"):
            words = item.strip().split()
            if words and words[0] in LOOP_STRATEGIES:
                applies.add(words[0])
        loops.append(applies)
    return loops


@pytest.mark.parametrize("spec", LOOP_SAMPLES, ids=lambda s: s.name)
def test_loop_types_cover_the_strategies(helionc, spec):
    """Each listed combination names one applicable strategy per inner loop, and every tested
    strategy that applies to a loop appears there in some combination."""
    loops = applicable_strategies(helionc, spec)
    assert loops, "the plan dump lists no inner loop"
    for types in spec.loop_types:
        assert len(types) == len(loops), f"{types}: the kernel has {len(loops)} inner loops"
        for i, name in enumerate(types):
            assert name in loops[i], f"{types}: `{name}` does not apply to inner loop {i} ({sorted(loops[i])})"
    for i, applies in enumerate(loops):
        listed = {types[i] for types in spec.loop_types}
        missing = (applies & set(TESTED_STRATEGIES)) - listed
        assert not missing, f"inner loop {i}: {sorted(missing)} applies but no combination tests it"


REFUSED_CASES = [
    pytest.param(spec, types, id=f"{spec.name}-{'-'.join(types)}") for spec in SAMPLES for types in spec.refused_loop_types
]


@pytest.mark.parametrize("spec,types", REFUSED_CASES)
def test_refuses_inapplicable_loop_types(helionc, spec, types):
    """A config asking for a strategy that does not apply is a compile error quoting the reason."""
    block_sizes = next(iter(spec.configs.values()))
    config_id = f"refused-{'-'.join(types)}"
    with pytest.raises(CompileError) as error:
        helionc.compile(spec.name, spec.kernel, config_id, block_sizes, types)
    message = str(error.value)
    assert "exited with 1" in message, message
    assert "does not apply to this inner loop" in message, message
