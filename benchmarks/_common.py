"""Helpers shared by the benchmark scripts (run as ``python benchmarks/<script>.py``,
which puts this directory on ``sys.path``)."""

from __future__ import annotations

import os
import platform
import re


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo where there is one)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.+)", f.read())
        if m:
            cpu = m.group(1).strip()
    except OSError:
        pass
    return cpu


def machine() -> str:
    """One line naming the machine: cores, CPU model, Python, numpy, BLAS threads."""
    cpu = cpu_model()
    import numpy

    return (
        f"{os.cpu_count()} cores ({cpu}), Python {platform.python_version()}, "
        f"numpy {numpy.__version__}, "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}"
    )
