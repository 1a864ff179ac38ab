import torch

import helion
import helion.language as hl


# Lists, tuples and dicts of tensors as parameters: their elements are separate arrays of the
# module, so every use is resolved when compiling. A length the kernel does not fix, a computed
# index, an index past a declared tuple, a dict read without a constant key, a pack used as a
# value, a mismatched unpacking and comprehensions over a pack that shadow a name or make no
# tensors are errors at the use.
@helion.kernel()
def iterate_list(xs: list[torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        acc = hl.zeros([tile], dtype=torch.float32)
        for x in xs:
            acc = acc + x[tile]
        out[tile] = acc
    return out


@helion.kernel()
def computed_index(xs: tuple[torch.Tensor, torch.Tensor], n: int) -> torch.Tensor:
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        for i in hl.static_range(n):
            out[tile] = xs[i][tile]
    return out


@helion.kernel()
def past_the_end(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        out[tile] = xs[2][tile]
    return out


@helion.kernel()
def dict_iterated(d: dict[str, torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(d["x"])
    for tile in hl.tile(out.size(0)):
        for key in d:
            out[tile] = d["x"][tile]
    return out


@helion.kernel()
def pack_as_value(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        out[tile] = xs[0][tile]
    return xs


@helion.kernel()
def unpack_three(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    a, b, c = xs
    out = torch.empty_like(a)
    for tile in hl.tile(out.size(0)):
        out[tile] = a[tile] + b[tile]
    return out


@helion.kernel()
def negative_index(xs: list[torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        out[tile] = xs[-1][tile]
    return out


@helion.kernel()
def shadowing_comprehension(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    x = xs[0]
    doubled = [x * 2 for x in xs]
    out = torch.empty_like(x)
    for tile in hl.tile(out.size(0)):
        for d in doubled:
            out[tile] = d[tile]
    return out


@helion.kernel()
def sizes_comprehension(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    sizes = [x.size(0) for x in xs]
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        out[tile] = xs[0][tile]
    return out
