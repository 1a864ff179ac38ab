import torch
import helion
import helion.language as hl

@helion.kernel()
def scaled(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(scale)
    for tile in hl.tile(x.size(0)):
        quantized = x[tile].to(torch.float8_e4m3fn)
        y = quantized * scale[tile].to(torch.float32)
        out[tile] = y
    return out
