"""Checks on 4 simulated CPU devices for the jax backend's tests.

XLA reads ``--xla_force_host_platform_device_count`` when jax starts, so the
checks run in a subprocess: :data:`PREAMBLE` (the devices, a 1-d mesh ``mesh``
over them and its shardings ``rows``, ``cols``, ``rep``) followed by a test's
own code, which passes when it runs to its end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))

PREAMBLE = """
import numpy as np
import jax
import jax.numpy as jnp
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P, SingleDeviceSharding

import lazygraph
import lazygraph.numpy as lnp

devices = jax.devices()
assert len(devices) == 4, devices
mesh = Mesh(np.array(devices), ("d",))
rows = NamedSharding(mesh, P("d", None))
cols = NamedSharding(mesh, P(None, "d"))
rep = NamedSharding(mesh, P())
"""


def run_on_four_devices(body: str) -> None:
    """Run :data:`PREAMBLE` and then ``body`` (dedented) in a fresh interpreter
    with 4 CPU devices; fails with its error output unless it ends normally."""
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    env["JAX_PLATFORMS"] = "cpu"
    env.pop("LAZYGRAPH_BACKEND", None)
    code = PREAMBLE + textwrap.dedent(body) + '\nprint("FOUR-DEVICES-OK")\n'
    proc = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "FOUR-DEVICES-OK" in proc.stdout
