"""pytest plugin of scripts/corpus_calls.py: records each kernel call Helion's eager mode runs.

Loaded into Helion's own test run (`-p corpus_calls_plugin`), with CORPUS_CALLS_OUT naming the
folder to write. Every eager kernel run goes through `BoundKernel.run_ref`, which is wrapped
here; `code_and_output` and `output_only` are wrapped to tell a test's own config (their kwargs)
from the kernel's, and `to_code`/`compile_config` to record the configs a test only generates
code for (`bound.to_triton_code(config)`), with the arguments of the `bind` that made `bound`;
a `bind` itself is recorded when the bound kernel is new (a test may only read its config
space). Calls inside `assertRaises` contexts are marked `expects_error`.
"""

from __future__ import annotations

import contextvars
import json
import os
import unittest

import numpy as np

OUT = os.environ.get("CORPUS_CALLS_OUT", "")
MAX_ELEMENTS = int(os.environ.get("CORPUS_CALLS_MAX_ELEMENTS", str(1 << 22)))
_test_kwargs: contextvars.ContextVar[dict | None] = contextvars.ContextVar("kwargs", default=None)
_in_code: contextvars.ContextVar[bool] = contextvars.ContextVar("in_code", default=False)
# Inside `with self.assertRaises...(...)`: the test expects the call to fail.
_expects_error: contextvars.ContextVar[bool] = contextvars.ContextVar("expects", default=False)
_in_run: contextvars.ContextVar[bool] = contextvars.ContextVar("in_run", default=False)
_counter = [0]


def _jsonable(value):
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


def _describe(value, torch):
    """The argument as JSON: a tensor's shape and dtype, else the Python value."""
    if isinstance(value, torch.Tensor):
        return {"shape": list(value.shape), "dtype": str(value.dtype).removeprefix("torch.")}
    if isinstance(value, torch.dtype):
        return {"torch_dtype": str(value).removeprefix("torch.")}
    if isinstance(value, (list, tuple)):
        return {"sequence": [_describe(v, torch) for v in value], "tuple": isinstance(value, tuple)}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return {"value": value}
    return {"unsupported": type(value).__name__}


def _tensors(value, torch, prefix):
    """(key, tensor) for every tensor in `value`, nested sequences flattened in order."""
    if isinstance(value, torch.Tensor):
        yield prefix, value
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from _tensors(item, torch, f"{prefix}_{i}")


def _numpy(tensor, torch):
    tensor = tensor.detach().cpu()
    if tensor.dtype in (torch.bfloat16, torch.float16) or tensor.dtype.is_floating_point and \
            tensor.element_size() == 1:
        tensor = tensor.to(torch.float32)  # numpy has no bfloat16 or 8-bit floats
    return tensor.numpy().copy()


def _config_dict(config):
    if config is None:
        return None
    return _jsonable(dict(config.config if hasattr(config, "config") else config))


def _record(bound, args, run, torch, checkout, config=None):
    """Records a call of `bound` on `args`; `run` runs it (eagerly), or is None for a config
    the test only generates code for (`bound.to_triton_code(config)`), recorded without
    values."""
    fn = bound.kernel.fn
    code = fn.__code__
    before = dict(_tensors(list(args), torch, "in"))
    small = run is not None and sum(t.numel() for t in before.values()) <= MAX_ELEMENTS
    saved = {k: _numpy(t, torch) for k, t in before.items()} if small else {}
    if run is None:
        test_config = _config_dict(config)
    else:
        config = getattr(bound, "_config", None)
        test_config = _jsonable(_test_kwargs.get())
    entry = {
        "test": os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0],
        "file": os.path.relpath(code.co_filename, checkout),
        "line": code.co_firstlineno,
        "kernel": fn.__name__,
        "params": list(bound.kernel.signature.parameters),
        "args": [_describe(a, torch) for a in args],
        "config": _config_dict(config),
        "test_config": test_config,
        "kernel_configs": len(bound.kernel.configs),
    }
    if _expects_error.get():
        entry["expects_error"] = True
    if run is None:
        entry["code_only"] = True
        _write(entry, saved)
        return None
    try:
        result = run()
    except Exception as error:
        entry["error"] = f"{type(error).__name__}: {str(error)[:300]}"
        _write(entry, saved)
        raise
    if small:
        saved.update({k.replace("in", "after", 1): _numpy(t, torch)
                      for k, t in _tensors(list(args), torch, "in")})
        saved.update({k: _numpy(t, torch) for k, t in _tensors(result, torch, "out")})
        entry["result"] = _describe(result, torch)
    _write(entry, saved)
    return result


def _write(entry, saved):
    _counter[0] += 1
    entry["id"] = f"{os.getpid()}_{_counter[0]}"
    if saved:
        np.savez(os.path.join(OUT, "values", entry["id"] + ".npz"), **saved)
        entry["values"] = True
    with open(os.path.join(OUT, "calls.jsonl"), "a") as calls:
        calls.write(json.dumps(entry) + "\n")


def pytest_configure(config):
    if not OUT:
        return
    import torch

    import helion._testing as testing
    from helion.runtime.kernel import BoundKernel, Kernel

    checkout = str(config.rootpath)
    run_ref = BoundKernel.run_ref

    def recorded_run_ref(self, *args):
        token = _in_run.set(True)
        try:
            return _record(self, args, lambda: run_ref(self, *args), torch, checkout)
        finally:
            _in_run.reset(token)

    BoundKernel.run_ref = recorded_run_ref

    # Configs a test only generates code for, on the arguments the kernel was bound to.
    bind = Kernel.bind

    def remembering_bind(self, args):
        bound = bind(self, args)
        if not hasattr(bound, "_corpus_args") and not _in_run.get():
            # A test that only binds (to read the config space) passes these arguments too.
            _record(bound, args, None, torch, checkout)
        bound._corpus_args = tuple(args)
        return bound

    Kernel.bind = remembering_bind
    for name in ("to_code", "compile_config"):
        original = getattr(BoundKernel, name)

        def recorded(self, config=None, *rest, _original=original, **kwargs):
            if not _in_code.get() and hasattr(self, "_corpus_args"):
                _record(self, self._corpus_args, None, torch, checkout, config)
            token = _in_code.set(True)
            try:
                return _original(self, config, *rest, **kwargs)
            finally:
                _in_code.reset(token)

        setattr(BoundKernel, name, recorded)

    for name in ("code_and_output", "output_only"):
        original = getattr(testing, name)

        def with_kwargs(fn, args, _original=original, **kwargs):
            token = _test_kwargs.set(dict(kwargs))
            try:
                return _original(fn, args, **kwargs)
            finally:
                _test_kwargs.reset(token)

        setattr(testing, name, with_kwargs)

    context = unittest.case._AssertRaisesContext
    enter, exit_ = context.__enter__, context.__exit__

    def expecting_enter(self):
        self._corpus_token = _expects_error.set(True)
        return enter(self)

    def expecting_exit(self, *exc):
        _expects_error.reset(self._corpus_token)
        return exit_(self, *exc)

    context.__enter__, context.__exit__ = expecting_enter, expecting_exit
