"""Lower a function for TPU on the CPU and keep the Mosaic module of every pallas_call in it.

Every `pl.pallas_call` runs with `debug=True` (the public way to see the Mosaic MLIR), so Pallas
canonicalises each module and prints it. Pallas's print carries no source locations; to tell
which generated line an op comes from, the module objects are also picked up where Pallas
builds them (`lower_jaxpr_to_pipelined_module`, private to jax 0.10.2) and printed again with
debug info after the export. When that hook is missing, the printed text is used.
"""

from __future__ import annotations

import contextlib
import functools
import io

import jax
from jax.experimental import pallas as pl

from e2e_support import tpu_tracing
from mosaic_mlir import split_modules

try:
    from jax._src.pallas.mosaic import lowering as _mosaic_lowering
except ImportError:  # another jax: fall back to the printed text
    _mosaic_lowering = None


@contextlib.contextmanager
def _patched(owner, name: str, wrap):
    original = getattr(owner, name)
    setattr(owner, name, wrap(original))
    try:
        yield
    finally:
        setattr(owner, name, original)


def _with_debug(pallas_call):
    @functools.wraps(pallas_call)
    def call(*args, **kwargs):
        kwargs["debug"] = True
        return pallas_call(*args, **kwargs)

    return call


def _recording(into: list):
    def wrap(lower):
        @functools.wraps(lower)
        def lowered(*args, **kwargs):
            module = lower(*args, **kwargs)
            into.append(module)
            return module

        return lowered

    return wrap


def mosaic_modules(fn, *args: jax.ShapeDtypeStruct) -> list[str]:
    """The Mosaic module text of each pallas_call that `jax.export` lowers for `fn(*args)` on a
    TPU7x, in lowering order (with `loc(...)` debug info when the hook is available)."""
    printed = io.StringIO()
    objects: list = []
    with contextlib.ExitStack() as stack:
        stack.enter_context(_patched(pl, "pallas_call", _with_debug))
        if _mosaic_lowering is not None and hasattr(_mosaic_lowering, "lower_jaxpr_to_pipelined_module"):
            stack.enter_context(_patched(_mosaic_lowering, "lower_jaxpr_to_pipelined_module", _recording(objects)))
        stack.enter_context(contextlib.redirect_stdout(printed))
        stack.enter_context(tpu_tracing())
        jax.export.export(jax.jit(fn), platforms=["tpu"])(*args)
    texts = split_modules(printed.getvalue())
    if objects and len(objects) == len(texts):
        # canonicalised in place by the debug path before it printed them
        return [m.operation.get_asm(enable_debug_info=True) for m in objects]
    return texts
