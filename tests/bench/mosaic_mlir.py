"""A reader of the textual Mosaic MLIR that Pallas prints (`pl.pallas_call(..., debug=True)`).

Just enough of MLIR's custom assembly form to find the ops of a kernel, their regions (scf.if,
scf.for, ...), the vector types they produce or consume, and their source locations when the
module was printed with debug info. Standard library only, so the counter's unit test runs with
any python3. One op per line is what MLIR's printer writes; a line that ends in `{` opens a
region of the op on it, a line that starts with `}` closes one (`} else {` opens the next).
"""

from __future__ import annotations

import dataclasses
import math
import re

VECTOR_TYPE = re.compile(r"vector<((?:\d+x)*)([a-z]\w*)>")
_RESULTS = re.compile(r"^((?:%[\w.$-]+(?::\d+)?)(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)\s*=\s*")
_OP_NAME = re.compile(r'^"?([a-z_][\w]*\.[\w.]+|return|module)"?')
_TRAILING_LOC = re.compile(r"\s+loc\((?:[^()]|\([^()]*\))*\)\s*$")
_LOC_REF = re.compile(r"loc\((#loc\d*)\)")
_LOC_ALIAS = re.compile(r"^(#loc\d*)\s*=\s*loc\((.*)\)\s*$")


@dataclasses.dataclass(frozen=True)
class VectorType:
    shape: tuple[int, ...]
    dtype: str

    @property
    def elements(self) -> int:
        return math.prod(self.shape)


@dataclasses.dataclass
class Op:
    """One operation: its name, its text (locations stripped), SSA results and regions."""

    name: str
    text: str
    results: list[str]
    regions: list[list["Op"]] = dataclasses.field(default_factory=list)
    loc: str | None = None  # the `#locN` alias or inline location it was printed with

    def vectors(self) -> list[VectorType]:
        """The vector types written in the op's type signature, in order."""
        signature = self.text.rsplit(" : ", 1)[-1] if " : " in self.text else ""
        return [VectorType(tuple(int(d) for d in dims.split("x") if d), dtype)
                for dims, dtype in VECTOR_TYPE.findall(signature)]

    def operands(self) -> list[str]:
        """SSA names used by the op (before its attribute dict and types)."""
        head = self.text.split(" : ", 1)[0]
        if "=" in head and self.results:
            head = head.split("=", 1)[1]
        head = re.sub(r"\{.*\}", "", head)
        return re.findall(r"%[\w.$-]+", head)


@dataclasses.dataclass
class Func:
    name: str
    header: str
    body: list[Op]

    def iteration_bounds(self) -> tuple[int, ...]:
        """The pallas grid (`iteration_bounds`); () for a kernel without a grid."""
        found = re.search(r"iteration_bounds = array<i64(?::\s*([\d,\s]*))?>", self.header)
        if not found or not found.group(1):
            return ()
        return tuple(int(d) for d in found.group(1).split(","))

    def arguments(self) -> list[str]:
        return re.findall(r"(%arg\d+)\s*:", self.header.split(") attributes", 1)[0])


@dataclasses.dataclass
class Module:
    funcs: list[Func]
    loc_aliases: dict[str, str]

    def kernel(self) -> Func:
        """The kernel body: the func with `window_params`/`iteration_bounds`, else the first one
        that is not an index map (`transform_N`)."""
        for f in self.funcs:
            if "iteration_bounds" in f.header or "window_params" in f.header:
                return f
        for f in self.funcs:
            if not f.name.startswith("transform_"):
                return f
        raise ValueError("no kernel function in the Mosaic module")

    def source_line(self, op: Op, prefer: str | None = None) -> tuple[str, int] | None:
        """(file, line) an op came from. Of the frames in a file whose path ends with `prefer`
        (the generated module), the outermost is the kernel function; the line reported is the
        innermost frame inside it (a `pl.when` or pipeline body counts as inside), so an op of
        a module-level helper (`_dot`) is reported at the kernel line that calls the helper.
        Without `prefer` (or no such frame), the first frame."""
        frames = _frames(self.loc_aliases, op.loc, 0) if op.loc else []
        mine = [f for f in frames if prefer and f[1].endswith(prefer)]
        if mine:
            kernel = mine[-1][0]
            for name, path, line in mine:
                if kernel and name.startswith(kernel):
                    return path, line
            return mine[0][1], mine[0][2]
        return (frames[0][1], frames[0][2]) if frames else None


_LOC_TOKEN = re.compile(r'\s*(#loc\d*|"(?:[^"\\]|\\.)*"|callsite|fused|unknown|\bat\b|[()\[\],<>]|:\d+(?::\d+)?|to|[^\s()\[\],<>"]+)')


def _frames(aliases: dict[str, str], loc: str, depth: int) -> list[tuple[str, str, int]]:
    """(function name, file, line) of a location, innermost first: a `callsite(callee at
    caller)` lists the callee's frames before the caller's; a file location named by a function
    (`loc("fn"("file":line:col))`) carries that name, others an empty one."""
    if depth > 64:
        return []
    text = aliases.get(loc, loc) if loc.startswith("#loc") else loc
    if text.startswith("loc(") and text.endswith(")"):
        text = text[4:-1]
    tokens = [t for t in _LOC_TOKEN.findall(text) if t.strip()]
    frames, _ = _parse_loc(aliases, tokens, 0, depth)
    return frames


def _parse_loc(aliases, tokens: list[str], i: int, depth: int):
    """Recursive descent over one location; returns (frames, index after it)."""
    if i >= len(tokens):
        return [], i
    token = tokens[i]
    if token.startswith("#loc"):
        return _frames(aliases, token, depth + 1), i + 1
    if token == "callsite":  # callsite ( callee at caller )
        callee, i = _parse_loc(aliases, tokens, i + 2, depth)
        caller, i = _parse_loc(aliases, tokens, i + 1, depth)  # skips `at`
        return callee + caller, i + 1
    if token == "fused":  # fused<metadata>? [ a, b, ... ]
        while i < len(tokens) and tokens[i] != "[":
            i += 1
        frames = []
        i += 1
        while i < len(tokens) and tokens[i] != "]":
            if tokens[i] == ",":
                i += 1
                continue
            more, i = _parse_loc(aliases, tokens, i, depth)
            frames += more
        return frames, i + 1
    if token.startswith('"'):
        quoted = token[1:-1]
        if i + 1 < len(tokens) and tokens[i + 1].startswith(":"):  # "file":line:col [to ...]
            line = int(tokens[i + 1][1:].split(":")[0])
            i += 2
            while i < len(tokens) and tokens[i] not in (")", ",", "]", "at"):
                i += 1
            return [("", quoted, line)], i
        if i + 1 < len(tokens) and tokens[i + 1] == "(":  # "name"(child)
            inner, i = _parse_loc(aliases, tokens, i + 2, depth)
            named = [(quoted if not name else name, path, line) for name, path, line in inner]
            return named, i + 1
        return [], i + 1
    return [], i + 1


def split_modules(text: str) -> list[str]:
    """The Mosaic modules in a stream of Pallas's debug output (or one module's text): each
    from a `module` line at column 0 to the `}` at column 0 that closes it, with the location
    aliases (`#locN = loc(...)`) printed after it."""
    modules: list[list[str]] = []
    inside = False
    for line in text.splitlines():
        if inside:
            modules[-1].append(line)
            inside = not line.startswith("}")
        elif re.match(r"^module\b.*\{\s*$", line):
            modules.append([line])
            inside = True
        elif modules and _LOC_ALIAS.match(line):
            modules[-1].append(line)
    return ["\n".join(lines) for lines in modules]


def parse_module(text: str) -> Module:
    """Parse one module's text (see split_modules)."""
    aliases = {}
    root: list[Op] = []
    stack: list[list[Op]] = [root]
    owners: list[Op | None] = [None]
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        alias = _LOC_ALIAS.match(line)
        if alias:
            aliases[alias.group(1)] = alias.group(2)
            continue
        loc = None
        found_loc = _TRAILING_LOC.search(line)
        if found_loc:
            ref = _LOC_REF.search(found_loc.group(0))
            loc = ref.group(1) if ref else found_loc.group(0).strip()
            line = line[: found_loc.start()].rstrip()
        if line.startswith("}"):
            stack.pop()
            owner = owners.pop()
            if line.endswith("{") and owner is not None:  # `} else {`, `} do {`
                region: list[Op] = []
                owner.regions.append(region)
                stack.append(region)
                owners.append(owner)
            continue
        results_match = _RESULTS.match(line)
        results = []
        rest = line
        if results_match:
            results = [r.strip().split(":")[0] for r in results_match.group(1).split(",")]
            rest = line[results_match.end():]
        name_match = _OP_NAME.match(rest)
        name = name_match.group(1) if name_match else rest.split(" ", 1)[0]
        op = Op(name=name, text=line, results=results, loc=loc)
        stack[-1].append(op)
        if line.endswith("{"):
            region = []
            op.regions.append(region)
            stack.append(region)
            owners.append(op)
    funcs = []
    for op in _walk_top(root):
        if op.name == "func.func":
            found = re.match(r"func\.func\s+(?:private\s+)?@([\w$.-]+)", op.text)
            funcs.append(Func(found.group(1) if found else "?", op.text, op.regions[0] if op.regions else []))
    return Module(funcs, aliases)


def _walk_top(ops: list[Op]):
    for op in ops:
        yield op
        if op.name == "module":
            for region in op.regions:
                yield from _walk_top(region)
