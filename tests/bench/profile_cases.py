"""What the kernel profile lowers: per sample, block sizes and two calls, one the blocks divide
and one they do not (calls in the `.shapes` syntax, bf16 where the sample allows it).

The three samples JAX has a hand-written kernel for use that kernel's block sizes and the shapes
issue 9 quotes (matmul 4096³ with blocks 512 × 1024 × 1024; flash attention B=2, H=4, S=4096,
D=128 with 512-row query and key blocks); their partial shapes are 4000 where the dividing ones
are 4096. The others take the larger block config of their expectation file
(samples/<name>.expect.py). A sample missing here (a new one) is profiled with that file's last
config and the first two calls of its sidecar, whatever they divide.
"""

from __future__ import annotations

import dataclasses

import hand_written

# rows 1003 and columns 1000: multiples of no block size above 1 (rows) or of 128 (columns)
_ROWS, _COLS = 1003, 1000


def _matrix(name: str, *, dtype: str = "bf16") -> tuple[str, str]:
    return f"{name}=2048x2048:{dtype}", f"{name}={_ROWS}x{_COLS}:{dtype}"


def _join(*pairs: tuple[str, str]) -> tuple[str, str]:
    return ",".join(p[0] for p in pairs), ",".join(p[1] for p in pairs)


def _vector(name: str, dividing: int, partial: int, dtype: str = "bf16") -> tuple[str, str]:
    return f"{name}={dividing}:{dtype}", f"{name}={partial}:{dtype}"


def _attention(dims_partial: str = "2x4x4000x128", dtype: str = "bf16") -> tuple[str, str]:
    names = ("q_in", "k_in", "v_in")
    return (",".join(f"{n}=2x4x4096x128:{dtype}" for n in names),
            ",".join(f"{n}={dims_partial}:{dtype}" for n in names))


@dataclasses.dataclass(frozen=True)
class Case:
    sample: str
    blocks: tuple[int, ...]
    dividing: str
    partial: str
    # name of the hand-written kernel to compare with (see HAND_WRITTEN), if any
    hand_written: str | None = None
    # count the key-block products a causal kernel runs (evaluating its control flow), of
    # this many query x key block pairs per batch row and head
    count_blocks: bool = False
    block_pairs: int = 0


def _case(sample: str, blocks: tuple[int, ...], calls: tuple[str, str], **kwargs) -> Case:
    return Case(sample, blocks, calls[0], calls[1], **kwargs)


_MATRIX = _matrix("x")
_ROW_VECTOR = _vector("weight", 2048, _COLS)

CASES: tuple[Case, ...] = (
    _case("matmul", (512, 1024, 1024), ("x=4096x4096:bf16,y=4096x4096:bf16", "x=4000x4000:bf16,y=4000x4000:bf16"),
          hand_written="matmul"),
    _case("attention", (1, 512, 512), _attention(), hand_written="flash"),
    _case("causal_attention", (1, 512, 512), _attention(), hand_written="flash_causal",
          count_blocks=True, block_pairs=(4096 // 512) ** 2),
    _case("attention_lse", (1, 512, 512), _attention(dtype="f32")),  # float32 only (its expectation file)
    _case("matmul_bias_relu", (32, 256, 256), ("x=2048x2048:bf16,y=2048x2048:bf16,bias=2048:bf16",
                                               f"x={_ROWS}x{_COLS}:bf16,y={_COLS}x{_COLS}:bf16,bias={_COLS}:bf16")),
    _case("bmm", (2, 32, 128, 256), ("A=4x1024x1024:bf16,B=4x1024x1024:bf16", f"A=3x{_ROWS}x{_COLS}:bf16,B=3x{_COLS}x{_ROWS}:bf16")),
    _case("matmul_layernorm", (32, 256), ("x=2048x2048:bf16,y=2048x1024:bf16,weight=1024:bf16,bias=1024:bf16",
                                          f"x={_ROWS}x{_COLS}:bf16,y={_COLS}x{_COLS}:bf16,weight={_COLS}:bf16,bias={_COLS}:bf16")),
    _case("long_sum", (16, 2048), ("x=64x131072:bf16", "x=13x100000:bf16")),
    _case("causal_row_sum", (32, 256), ("x=2048x2048:bf16", f"x={_ROWS}x{_ROWS}:bf16")),
    _case("softmax_two_pass", (16, 512), _MATRIX),
    _case("softmax_bwd", (16, 512, 256), _join(_matrix("grad_output"), _matrix("softmax_output"))),
    _case("add", (16, 512), _join(_matrix("x"), _matrix("y"))),
    _case("add_scaled", (32, 256), _join(_matrix("x"), _matrix("y"))),
    _case("silu", (4096,), ("x=4194304:bf16", "x=1000003:bf16")),
    _case("bias_gelu", (64, 256), _join(_matrix("x"), _vector("bias", 2048, _COLS))),
    _case("mixed_dtype", (32, 512), _join(_matrix("x"), _matrix("y"))),
    _case("batchnorm", (), ("x=8x256x512:bf16,mean=512:f32,var=512:f32,weight=512:f32,bias=512:f32",
                            "x=4x100x300:bf16,mean=300:f32,var=300:f32,weight=300:f32,bias=300:f32")),
    _case("clip_flags", (32, 256), _MATRIX),
    _case("softplus", (16, 1024), _MATRIX),
    _case("softmax", (32,), _MATRIX),
    _case("softmax_decomposed", (64,), _MATRIX),
    _case("log_softmax", (32,), _MATRIX),
    _case("rms_norm", (32,), _join(_MATRIX, _ROW_VECTOR)),
    _case("row_sum", (64,), _MATRIX),
    _case("row_mean", (32,), _MATRIX),
    _case("col_sum", (512,), _MATRIX),
    _case("softmax_3d", (2, 32), ("x=16x256x512:bf16", "x=3x101x300:bf16")),
    _case("layer_norm", (32,), _join(_MATRIX, _ROW_VECTOR, _vector("bias", 2048, _COLS))),
    _case("layer_norm_stats", (16,), _join(_MATRIX, _ROW_VECTOR, _vector("bias", 2048, _COLS))),
    _case("cross_entropy", (32,), _join(_matrix("logits"), _vector("labels", 2048, _ROWS, "i32"))),
    _case("cross_entropy_gather", (32,), _join(_matrix("logits"), _vector("labels", 2048, _ROWS, "i32"))),
    _case("cross_entropy_pick", (32,), _join(_matrix("logits"), _vector("labels", 2048, _ROWS, "i32"))),
    _case("embedding", (32, 256), ("weight=1000x1024:bf16,x=16x128:i32", f"weight=1000x{_COLS}:bf16,x=3x333:i32")),
    _case("first_column_scale", (32, 256), _join(_MATRIX, ("scale=1:f32", "scale=1:f32"))),
    _case("row_max", (32,), _MATRIX),
    _case("tril", (32, 256), _MATRIX),
    _case("soft_argmax", (32,), _MATRIX),
    _case("row_center", (32,), _join(_MATRIX, _vector("w", 2048, _ROWS))),
    _case("matmul_whole_k", (64, 256), ("x=2048x1024:bf16,y=1024x2048:bf16", f"x={_ROWS}x300:bf16,y=300x{_COLS}:bf16")),
    _case("linear_relu_whole_k", (32, 256), ("x=2048x1024:bf16,w=2048x1024:bf16,bias=2048:bf16",
                                             f"x={_ROWS}x256:bf16,w={_COLS}x256:bf16,bias={_COLS}:bf16")),
    _case("block_diag_matmul", (64,), ("x=2048x1024:bf16,w=1024x1024:bf16", f"x={_ROWS}x300:bf16,w=300x300:bf16")),
    _case("bmm_whole_k", (2, 32, 256), ("q=8x1024x128:bf16,k=8x1024x128:bf16", f"q=3x{_ROWS}x64:bf16,k=3x{_COLS}x64:bf16")),
    _case("scalar_mul_bf16", (32, 256), _MATRIX),
    _case("horner", (32, 256), _MATRIX),
)

CASES_BY_SAMPLE = {c.sample: c for c in CASES}

# The hand-written kernels at the blocks and shapes of the cases above: name -> (label, the
# source file of the kernel, factory of (fn, argument structs)).
HAND_WRITTEN = {
    "matmul": ("JAX matmul.py", hand_written.MATMUL_SOURCE,
               lambda: hand_written.matmul(4096, 4096, 4096, 512, 1024, 1024)),
    "flash": ("JAX flash_attention.py", hand_written.FLASH_SOURCE,
              lambda: hand_written.flash_attention(2, 4, 4096, 128, 512, 512, causal=False)),
    "flash_causal": ("JAX flash_attention.py causal", hand_written.FLASH_SOURCE,
                     lambda: hand_written.flash_attention(2, 4, 4096, 128, 512, 512, causal=True)),
}
