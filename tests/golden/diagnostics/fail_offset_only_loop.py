# A loop whose extent is read from a tensor and whose tile only offsets an index: the host has
# no axis to bound its blocks by (this crashed helionc before it was refused).
import torch
import helion
import helion.language as hl


@helion.kernel()
def segment_copy(x: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    out = torch.zeros_like(x)
    for seg in hl.grid(offsets.size(0) - 1):
        start = offsets[seg]
        length = offsets[seg + 1] - start
        for rows, cols in hl.tile([length, x.size(1)]):
            out[start + rows.index, cols] = x[start + rows.index, cols] * 2.0
    return out
