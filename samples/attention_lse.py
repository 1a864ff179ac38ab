"""Flash attention returning the log-sum-exp as well (Helion's examples/attention.py,
``attention``): the output and, per query, the base-2 log-sum-exp of the scaled scores
``m_i + log2(l_i)``, which the backward pass needs. As in Helion's example the LSE is written
through a trailing unit axis ([batch * heads, m, 1]) and reshaped on the host.

A few lines differ from Helion's example, whose forms helionc cannot compile yet (see
tests/e2e/pending/attention_helion.py): the accumulator starts as
``torch.zeros_like(q, dtype=torch.float32)`` rather than ``hl.zeros([tile_b, tile_m, head_dim])``,
and the scores are ``hl.dot(q_scaled, k.transpose(1, 2), out_dtype=torch.float32)`` rather than
``torch.bmm(q_scaled, k.transpose(1, 2), torch.float32)`` (the same product, as Helion's
comment says).
The LSE is returned as [batch, heads, m] (``lse.view(q_in.size(0), q_in.size(1), m_dim)``, so
q is [batch, heads, m, d]) rather than ``lse.reshape(q_in.size()[:-1])``.
"""

from __future__ import annotations

import math

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def attention(
    q_in: torch.Tensor,
    k_in: torch.Tensor,
    v_in: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor]:
    """(softmax(q @ k^T / sqrt(d)) @ v, base-2 LSE [..., m]) for q [..., m, d], k, v [..., n, d]."""
    m_dim = q_in.size(-2)
    n_dim = k_in.size(-2)
    assert n_dim == v_in.size(-2)
    head_dim = hl.specialize(q_in.size(-1))
    assert head_dim == k_in.size(-1) == v_in.size(-1)
    q_view = q_in.reshape([-1, m_dim, head_dim])
    v_view = v_in.reshape([-1, n_dim, head_dim])
    k_view = k_in.reshape([-1, n_dim, head_dim])
    out = torch.empty_like(q_view)
    lse = torch.empty([q_view.size(0), m_dim, 1], device=q_in.device, dtype=torch.float32)
    sm_scale = 1.0 / math.sqrt(head_dim)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    for tile_b, tile_m in hl.tile([q_view.size(0), m_dim]):
        m_i = hl.full([tile_b, tile_m], float("-inf"), dtype=torch.float32)
        l_i = torch.full_like(m_i, 1.0)
        q = q_view[tile_b, tile_m, :]
        acc = torch.zeros_like(q, dtype=torch.float32)
        for tile_n in hl.tile(v_view.size(1)):
            # scaling Q in-loop on-demand reduces spillage, faster than keeping pre-scaled Q
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
        lse[tile_b, tile_m, :] = (m_i + torch.log2(l_i))[:, :, None]
        out[tile_b, tile_m, :] = acc.to(out.dtype)
    return out.view(q_in.size()), lse.view(q_in.size(0), q_in.size(1), m_dim)


def check(z: int, h: int, n_ctx: int, head_dim: int) -> None:
    q, k, v = [torch.randn((z, h, n_ctx, head_dim), dtype=torch.float16, device="cuda") for _ in range(3)]
    out, lse = attention(q, k, v)
    expected = torch.nn.functional.scaled_dot_product_attention(q, k, v)
    torch.testing.assert_close(out, expected, atol=5e-2, rtol=2e-2)
    scores = (q.float() @ k.float().transpose(-2, -1)) / math.sqrt(head_dim)
    torch.testing.assert_close(lse, torch.logsumexp(scores, -1) / math.log(2), atol=5e-2, rtol=2e-2)


if __name__ == "__main__":
    check(2, 32, 1024, 64)
