"""How Numba compiles our generated functions: on a thread whose Python stack
is shallow, keeping only what calling the result needs.

**A shallow stack.** CPython 3.11 and later keep a thread's Python frames in
16 KiB chunks, each mapped with ``mmap`` when a call does not fit in the
current chunk and unmapped when the call that needed it returns. A loop whose
calls cross a chunk boundary maps, page-faults and unmaps a chunk on every
iteration. Numba's compiler is deep, recursive Python, and how many of its hot
calls straddle a boundary depends on how deep the stack already was when the
compile began. Measured on a small elementwise kernel at LLVM -O0 (2026-11-29):
49 ms per compile from a shallow stack, 104 ms (40 ms of it in the kernel:
``mmap``, ``munmap``, page faults) from 90 frames down, where a test under
pytest and hypothesis, or a call from a deep application or notebook stack,
puts it. So each new signature of a generated module's function (a kernel, a
flat loop, a graph function) compiles on a thread started for it while the
caller waits: ~50 ms wherever the call came from. A compile nested in another
(a graph function's typing compiling its kernels) is on such a thread already
and stays there. The caller does not hold Numba's compiler lock while it
waits, so Ctrl-C reaches it at once; the compile finishes on its thread, with
Numba's state whole (see :mod:`.interrupts`), and is there for the next call.
The thread is not a daemon: an interpreter exiting meanwhile waits for the
compile to end instead of stopping it inside LLVM.

**A slim result.** Numba keeps, with each compiled signature, the function's
typed IR (its type annotation, and the type maps of its function descriptor)
and the compile's timings: about 700 Python objects for a small kernel, which
nothing reads once the machine code exists, and which every full garbage
collection of the process then walks (17% of a test process's time, with a
few thousand kernels alive). They are dropped after the compile, and after the
disk cache has saved the signature: about 80 objects stay. Calling the kernel,
from Python or from another compiled function, needs only its entry point,
library and descriptor's names and types. Numba's ``inspect_types`` has nothing
to show for such a kernel afterwards; ``inspect_llvm`` and ``inspect_asm``
still work.

>>> import numba
>>> f = numba.njit(lambda x: x + 1)
>>> compile_lean(f)
>>> f(41)
42
>>> next(iter(f.overloads.values())).type_annotation is None
True
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["compile_lean"]


def compile_lean(dispatcher: Any) -> None:
    """Make ``dispatcher`` (a Numba ``Dispatcher``) compile each new signature
    on a shallow stack and keep a slim result (see the module docstring)."""
    from numba.core.compiler_lock import global_compiler_lock

    compile_here = dispatcher.compile

    def compile_and_slim(sig: Any) -> Any:
        entry = compile_here(sig)
        _slim(dispatcher)
        return entry

    def compile(sig: Any) -> Any:
        if global_compiler_lock.is_locked():
            # nested in a compile this thread is running: shallow already
            return compile_and_slim(sig)
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = compile_and_slim(sig)
            except BaseException as exc:  # raised again on the calling thread
                outcome["error"] = exc

        thread = threading.Thread(target=run, name="lazygraph-numba-compile-now")
        thread.start()
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["value"]

    dispatcher.compile = compile


def _slim(dispatcher: Any) -> None:
    """Drop the typed IR and timings of ``dispatcher``'s compiled signatures."""
    overloads = dispatcher.overloads
    for sig, cres in list(overloads.items()):
        if cres.type_annotation is None and cres.metadata is None:
            continue
        fndesc = cres.fndesc
        if fndesc is not None:
            fndesc.typemap = fndesc.calltypes = None
        overloads[sig] = cres._replace(type_annotation=None, metadata=None)
