"""Flash attention, non-causal (Helion's examples/attention.py, ``attention_output``): q, k and
v are viewed as [batch * heads, seq, dim] on the host; the kernel tiles the batch and the
queries, and an inner loop over key tiles keeps a running maximum ``m_i``, a running sum
``l_i`` and an unnormalised output ``acc`` (base-2 exponentials, ``qk_scale = sm_scale / ln 2``).

Two lines differ from Helion's example, whose forms helionc cannot compile yet (see
tests/e2e/pending/attention_helion.py): the accumulator starts as
``torch.zeros_like(q, dtype=torch.float32)`` rather than ``hl.zeros([tile_b, tile_m, head_dim])``,
and the scores are ``hl.dot(q_scaled, k.transpose(1, 2), out_dtype=torch.float32)`` rather than
``torch.bmm(q_scaled, k.transpose(1, 2), torch.float32)`` (the same product, as Helion's
comment says).
"""

from __future__ import annotations

import math

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def attention_output(q_in: torch.Tensor, k_in: torch.Tensor, v_in: torch.Tensor) -> torch.Tensor:
    """softmax(q @ k^T / sqrt(d)) @ v for q [..., m, d] and k, v [..., n, d]."""
    m_dim = q_in.size(-2)
    n_dim = k_in.size(-2)
    assert n_dim == v_in.size(-2)
    head_dim = hl.specialize(q_in.size(-1))
    assert head_dim == k_in.size(-1) == v_in.size(-1)
    q_view = q_in.reshape([-1, m_dim, head_dim])
    v_view = v_in.reshape([-1, n_dim, head_dim])
    k_view = k_in.reshape([-1, n_dim, head_dim])
    out = torch.empty_like(q_view)
    sm_scale = 1.0 / math.sqrt(head_dim)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    for tile_b, tile_m in hl.tile([q_view.size(0), m_dim]):
        m_i = hl.full([tile_b, tile_m], float("-inf"), dtype=torch.float32)
        l_i = torch.full_like(m_i, 1.0)
        q = q_view[tile_b, tile_m, :]
        acc = torch.zeros_like(q, dtype=torch.float32)
        for tile_n in hl.tile(v_view.size(1)):
            q_scaled = q * qk_scale
            k = k_view[tile_b, tile_n, :]
            qk = hl.dot(q_scaled, k.transpose(1, 2), out_dtype=torch.float32)
            m_ij = torch.maximum(m_i, torch.amax(qk, -1))
            qk = qk - m_ij[:, :, None]
            p = torch.exp2(qk)
            l_ij = torch.sum(p, -1)
            alpha = torch.exp2(m_i - m_ij)
            l_i = l_i * alpha + l_ij
            acc = acc * alpha[:, :, None]
            v = v_view[tile_b, tile_n, :]
            p = p.to(v.dtype)
            acc = torch.baddbmm(acc, p, v)
            m_i = m_ij
        acc = acc / l_i[:, :, None]
        out[tile_b, tile_m, :] = acc.to(out.dtype)
    return out.view(q_in.size())


def check(z: int, h: int, n_ctx: int, head_dim: int) -> None:
    q, k, v = [torch.randn((z, h, n_ctx, head_dim), dtype=torch.float16, device="cuda") for _ in range(3)]
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    torch.testing.assert_close(attention_output(q, k, v), expected, atol=5e-2, rtol=2e-2)


if __name__ == "__main__":
    check(2, 32, 1024, 64)
