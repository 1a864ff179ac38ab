import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scatter_add(
    out: torch.Tensor, seen: torch.Tensor, v: torch.Tensor, ids: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    # Through a tile of indices `hl.atomic_add` is a scatter-add (`store ... +=`), every element
    # adding; through tiles it stays a read-modify-write.
    for tile in hl.tile(v.size(0)):
        hl.atomic_add(out, [ids[tile]], v[tile])
        hl.atomic_add(seen, [tile], 1.0)
    return out, seen
