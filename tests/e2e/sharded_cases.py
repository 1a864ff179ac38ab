"""Calls of generated modules split across a mesh by jax.shard_map (test_jax_transforms.py).

Each case shards its arrays' leading axis over mesh axis "d" (or replicates them) in a way that
leaves the kernel's result unchanged: every shard is a call of its own whose rows need no other
shard. Shared by the interpret-mode run on host devices (sharded_run.py, a process of its own:
the host device count is fixed before jax starts) and the real compile for a four-chip topology.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

MESH_AXIS = "d"
MESH_DEVICES = 4


@dataclasses.dataclass(frozen=True)
class ShardedCase:
    sample: str
    kernel: str
    shapes: tuple  # (shape, dtype) per array argument, in parameter order
    in_specs: tuple
    out_specs: object
    # Interpret mode under shard_map's default check runs Pallas's TPU interpret mode, which
    # deadlocks on a host with fewer cores than devices when a launch has scratch buffers (its
    # io_callbacks wait on arrays the blocked CPU threads would compute); such a case interprets
    # with check_vma=False (JAX's HLO interpreter) and is compiled with the default check.
    interpret_check_vma: bool = True

    def arrays(self, seed: int = 0) -> list[np.ndarray]:
        rng = np.random.default_rng(seed)
        return [rng.standard_normal(shape).astype(dtype) for shape, dtype in self.shapes]

    def structs(self) -> list[jax.ShapeDtypeStruct]:
        return [jax.ShapeDtypeStruct(shape, jnp.dtype(dtype)) for shape, dtype in self.shapes]

    def sharded(self, module, mesh, interpret, check_vma=True):
        """The kernel under jax.shard_map over `mesh` (by default with its default checks)."""
        kernel = getattr(module, self.kernel)
        return jax.shard_map(
            lambda *arrays: kernel(*arrays, interpret=interpret),
            mesh=mesh,
            in_specs=self.in_specs,
            out_specs=self.out_specs,
            check_vma=check_vma,
        )

    def reference(self, module, arrays):
        return getattr(module, f"reference_{self.kernel}")(*arrays)


ROWS = P(MESH_AXIS)
WHOLE = P()

CASES = {
    case.sample: case
    for case in (
        ShardedCase("add", "add", (((64, 256), "float32"), ((64, 256), "float32")), (ROWS, ROWS), ROWS),
        ShardedCase("softmax", "softmax", (((64, 256), "float32"),), (ROWS,), ROWS),
        ShardedCase(
            "layer_norm",
            "layer_norm",
            (((64, 256), "float32"), ((256,), "float32"), ((256,), "float32")),
            (ROWS, WHOLE, WHOLE),
            ROWS,
        ),
        ShardedCase(
            "matmul",
            "matmul",
            (((64, 128), "float32"), ((128, 256), "float32")),
            (ROWS, WHOLE),
            ROWS,
            interpret_check_vma=False,  # an accumulator in scratch
        ),
        # An output that aliases an input (x += y): the result varies as x does.
        ShardedCase(
            "add_inplace", "add_inplace", (((64, 256), "float32"), ((64, 256), "float32")), (ROWS, ROWS), ROWS
        ),
        # A replicated operand beside a sharded one, in a kernel of rank 4.
        ShardedCase(
            "attention",
            "attention_output",
            (((4, 2, 128, 64), "float32"), ((4, 2, 128, 64), "float32"), ((4, 2, 128, 64), "float32")),
            (ROWS, ROWS, ROWS),
            ROWS,
        ),
    )
}
