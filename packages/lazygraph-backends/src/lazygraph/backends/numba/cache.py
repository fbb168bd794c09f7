"""Generated kernel modules and their persistent on-disk cache.

Every kernel (and every whole-graph function) is the source text of a small
Python module. :func:`load_source` gives the module for a source: from memory
when this process has loaded it already, else from
``<cache dir>/lg_<hash>/lg_<hash>.py`` (written when missing), whose functions
are ``njit(cache=True)`` so that Numba stores their machine code in
``__pycache__`` beside it. A second process therefore compiles nothing. Each
module has a directory of its own: finding a module's cache files is then a
listing of its few files, not of the whole cache (a flat directory of 25,000
files took 26 ms per listing, three listings per compile).

Integrity: Numba's cache of a kernel module is guarded by
:class:`VerifiedCache`. When Numba saves a compiled signature, a manifest
``<stem>.manifest.json`` is written with it, recording the format version, the
Numba version and the SHA-256 of every cache file of the module. Before Numba
loads a signature from disk, the module's files are checked against the
manifest; a missing manifest, a different version, a changed or truncated file
all make the entry untrusted: its cache files are deleted (Numba recompiles)
and a :class:`CacheWarning` says so. A module source whose text does not match
its name's hash is rewritten.

Several processes share one cache directory (pytest-xdist workers, dask
workers, notebooks): saving a signature with its manifest, and checking and
loading one, hold an exclusive lock on ``<stem>.lock`` (``fcntl.flock``), so no
process ever sees another's half-recorded entry, and each process's new
signatures land in the shared index. The lock is released when a process dies,
and files it left without a manifest entry are then discarded as above.
Without ``fcntl`` (Windows) there is no lock: a process that sees an entry
another one is still recording recompiles it, with a warning.

The directory is ``config.cache_dir`` (``LAZYGRAPH_CACHE_DIR``) or a per-user
default (``$XDG_CACHE_HOME/lazygraph``, else ``~/.cache/lazygraph``), with a
``numba-v<format>`` subdirectory, created with mode 0700. When it cannot be
created, kernels compile in memory only. Loading an entry runs its code, so an
entry is only loaded when the directories and its files belong to this user
and the directories are not writable by group or others; otherwise a
:class:`CacheWarning` says why and the kernel compiles in memory.

The backend's own ``@njit`` helpers (``helpers.py``, ``subtensor.py``...) get
their options from :func:`helper_options`: Numba caches their machine code in
``<cache dir>/numba-v<format>/helpers/``, with the same ownership checks,
never in the installed package's ``__pycache__`` (which may be read-only, or
shared by every user of the installation). Where the cache directory is
unusable they compile in memory.

>>> mod = load_source("def kernel(x):\\n    return x + 1\\n")
>>> mod.kernel(1)
2
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import stat
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from lazygraph.backends.numba.compiling import compile_lean
from lazygraph.configuration import config

try:
    import fcntl
except ImportError:  # Windows: no advisory locks (see the module docstring)
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "FORMAT_VERSION",
    "CacheWarning",
    "cache_root",
    "has_code",
    "helper_options",
    "is_loaded",
    "load_source",
    "source_hash",
]

#: bumped whenever generated code or the manifest layout changes meaning
FORMAT_VERSION = 2
_PREFIX = "lg_"


class CacheWarning(UserWarning):
    """A cache entry was unusable (corrupted, truncated, other version) and is
    being recompiled."""


_lock = threading.RLock()
_modules: dict[str, ModuleType] = {}
_roots: dict[str, Path | None] = {}


def source_hash(source: str) -> str:
    """The structural hash naming a generated module (format version included)."""
    text = f"lazygraph-numba-format-{FORMAT_VERSION}\n{source}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _default_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "lazygraph"


def cache_root() -> Path | None:
    """The directory holding the generated modules, created (mode 0700) on first
    use; ``None`` when it cannot be created (in-memory compilation only)."""
    configured = config.cache_dir or str(_default_dir())
    if configured in _roots:
        return _roots[configured]
    root: Path | None = Path(configured) / f"numba-v{FORMAT_VERSION}"
    try:
        for d in (Path(configured), root):
            d.mkdir(mode=0o700, parents=True, exist_ok=True)  # type: ignore[union-attr]
        if not os.access(root, os.W_OK):  # type: ignore[arg-type]
            root = None
    except OSError:
        root = None
    _roots[configured] = root
    return root


def _numba_version() -> str:
    import numba

    return str(numba.__version__)


def _cache_files(root: Path, stem: str) -> list[Path]:
    """Numba's cache files of ``stem`` (its index and data files), without
    those a process is writing right now (Numba writes ``<file>.tmp.<uuid>``
    and renames it into place)."""
    pycache = root / stem / "__pycache__"
    if not pycache.is_dir():
        return []
    return sorted(
        p
        for p in pycache.iterdir()
        if p.name.startswith(stem + ".") and p.suffix in (".nbi", ".nbc")
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest_path(root: Path, stem: str) -> Path:
    return root / stem / "__pycache__" / f"{stem}.manifest.json"


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _verify(root: Path, stem: str) -> None:
    """Delete the Numba cache files of ``stem`` unless its manifest vouches for
    every one of them."""
    files = _cache_files(root, stem)
    if not files:
        return
    manifest = _manifest_path(root, stem)
    problem = None
    try:
        data = json.loads(manifest.read_text())
        if data.get("format") != FORMAT_VERSION or data.get("numba") != _numba_version():
            problem = "it was written by another version"
        else:
            recorded = data["files"]
            for p in files:
                if p.name not in recorded:
                    problem = f"{p.name} is not in its manifest"
                    break
                if recorded[p.name] != _digest(p):
                    problem = f"{p.name} does not match its checksum (corrupted or truncated)"
                    break
    except FileNotFoundError:
        problem = "its manifest is missing"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        problem = "its manifest is unreadable"
    if problem is None:
        return
    warnings.warn(
        f"lazygraph numba cache entry {stem} in {root} is unusable ({problem}); recompiling",
        CacheWarning,
        stacklevel=4,
    )
    for p in files:
        with contextlib.suppress(OSError):
            p.unlink()
    with contextlib.suppress(OSError):
        manifest.unlink()


def record(root: Path, stem: str) -> None:
    """Write the manifest of ``stem``'s current Numba cache files."""
    files = {}
    for p in _cache_files(root, stem):
        try:
            files[p.name] = _digest(p)
        except FileNotFoundError:  # removed meanwhile by another process
            continue
    data = {"format": FORMAT_VERSION, "numba": _numba_version(), "files": files}
    with contextlib.suppress(OSError):
        _atomic_write(_manifest_path(root, stem), json.dumps(data, sort_keys=True).encode())


_stem_locks: dict[str, threading.RLock] = {}


@contextlib.contextmanager
def _locked(root: Path, stem: str) -> Iterator[None]:
    """Hold the exclusive lock of ``stem``'s entry (see the module docstring):
    between this process's threads by a lock of the entry's own, and between
    processes by ``fcntl.flock`` where there is one. The entry's directories
    exist already (:func:`load_source` makes them)."""
    with _lock:
        thread_lock = _stem_locks.setdefault(stem, threading.RLock())
    with thread_lock:
        if fcntl is None:
            yield
            return
        fd = os.open(root / stem / "__pycache__" / f"{stem}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock


_verified_cache_class: Any = None


def _verified_cache(dispatcher: Any, root: Path, stem: str) -> Any:
    """A Numba function cache for ``dispatcher`` whose loads are checked
    against ``stem``'s manifest and whose saves record it, both under the
    entry's lock."""
    global _verified_cache_class
    if _verified_cache_class is None:
        from numba.core.caching import FunctionCache

        class VerifiedCache(FunctionCache):  # type: ignore[misc]
            entry: tuple[Path, str]

            def load_overload(self, sig: Any, target_context: Any) -> Any:
                with _locked(*self.entry):
                    _verify(*self.entry)
                    return super().load_overload(sig, target_context)

            def save_overload(self, sig: Any, data: Any) -> None:
                with _locked(*self.entry):
                    super().save_overload(sig, data)
                    record(*self.entry)

        _verified_cache_class = VerifiedCache
    cache = _verified_cache_class(dispatcher.py_func)
    cache.entry = (root, stem)
    return cache


def _own_dispatchers(module: ModuleType) -> list[Any]:
    """The Numba functions defined in ``module`` (not the kernels of other
    modules a graph function's module imports)."""
    from numba.core.dispatcher import Dispatcher

    return [
        value
        for value in vars(module).values()
        if isinstance(value, Dispatcher) and value.py_func.__module__ == module.__name__
    ]


def _guard(dispatchers: list[Any], root: Path, stem: str) -> None:
    """Give each of a module's own cached Numba functions (see
    :func:`_own_dispatchers`) a :func:`_verified_cache`; the kernels a graph
    function's module imports have theirs, from their own modules' entries."""
    from numba.core.caching import FunctionCache

    for dispatcher in dispatchers:
        if isinstance(dispatcher._cache, FunctionCache):
            dispatcher._cache = _verified_cache(dispatcher, root, stem)


def has_code(key: str) -> bool:
    """Whether the disk cache holds verified machine code for the module named
    ``key`` (checked by :func:`load_source` when it loaded the module)."""
    root = cache_root()
    return root is not None and _manifest_path(root, _PREFIX + key).exists()


def _exec_in_memory(source: str, name: str) -> ModuleType:
    module = ModuleType(name)
    module.__dict__["__file__"] = f"<{name}>"
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    return module


def _untrusted_reason(path: Path) -> str | None:
    """Why ``path`` must not be loaded from (generated code is code execution),
    or ``None``: it must belong to this user, and a directory must not be
    writable by group or others."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"it cannot be inspected ({exc})"
    if st.st_uid != os.getuid():
        return f"it is owned by uid {st.st_uid}, not by this user (uid {os.getuid()})"
    if stat.S_ISDIR(st.st_mode) and st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"it is writable by group or others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _trusted(root: Path, stem: str) -> bool:
    """Whether the cache directory and ``stem``'s entry may be loaded; warns
    (and the caller compiles in memory) when not."""
    entry = root / stem
    pycache = entry / "__pycache__"
    paths = [root.parent, root, entry, pycache, entry / f"{stem}.py", *_cache_files(root, stem)]
    return _all_trusted(paths, "compiling in memory instead")


def _all_trusted(paths: list[Path], instead: str) -> bool:
    """Whether every path may be loaded from; warns about the first that may
    not (saying what happens ``instead``)."""
    for path in paths:
        problem = _untrusted_reason(path)
        if problem is not None:
            warnings.warn(
                f"lazygraph numba cache: not loading from {path}: {problem}; {instead}",
                CacheWarning,
                stacklevel=5,
            )
            return False
    return True


# -- the backend's own cached helpers ------------------------------------------

#: lazygraph's backends: Numba functions defined in files under it are cached
#: by :class:`_HelperLocator`
_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_helper_dirs: dict[tuple[str, str], Path | None] = {}
_locator_installed = False


def _helper_dir(py_file: str) -> Path | None:
    """Where Numba caches the helpers of the module ``py_file`` (created, and
    checked like the kernel cache); ``None`` when they must compile in memory."""
    from numba.core.caching import _CacheLocator

    root = cache_root()
    source_dir = str(Path(py_file).resolve().parent)
    key = (str(root), source_dir)
    with _lock:
        if key in _helper_dirs:
            return _helper_dirs[key]
        found: Path | None = None
        if root is not None:
            # one directory per installation: two checkouts sharing a cache
            # directory do not overwrite each other's entries
            found = root / "helpers" / _CacheLocator.get_suitable_cache_subpath(py_file)
            try:
                for d in (found.parent, found):
                    d.mkdir(mode=0o700, exist_ok=True)
                paths = [root.parent, root, found.parent, found, *found.iterdir()]
            except OSError:
                found, paths = None, []
            if not _all_trusted(paths, "compiling the backend's helpers in memory instead"):
                found = None
        _helper_dirs[key] = found
        return found


def _install_locator() -> None:
    """Put :class:`_HelperLocator` first in Numba's cache locators. It only
    answers for files of lazygraph's backends, so the user's own cached Numba
    functions stay where Numba puts them (unlike setting NUMBA_CACHE_DIR)."""
    global _locator_installed
    with _lock:
        if _locator_installed:
            return
        from numba.core import caching
        from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

        # CacheImpl since numba 0.62, _CacheImpl before
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl

        class _HelperLocator(_SourceFileBackedLocatorMixin, _CacheLocator):  # type: ignore[misc]
            def __init__(self, py_func: Any, py_file: str, path: Path) -> None:
                self._py_file = py_file
                self._lineno = py_func.__code__.co_firstlineno
                self._cache_path = str(path)

            def get_cache_path(self) -> str:
                return self._cache_path

            @classmethod
            def from_function(cls, py_func: Any, py_file: str) -> Any:
                if not Path(py_file).resolve().is_relative_to(_PACKAGE_DIR):
                    return None
                path = _helper_dir(py_file)
                if path is None:
                    # helper_options() said cache=False for this module; a
                    # helper that asks for caching anyway must not land in
                    # the package
                    raise RuntimeError(
                        f"lazygraph numba helper {py_func.__qualname__} in {py_file} asks "
                        "for cache=True without a usable cache directory; get its options "
                        "from lazygraph.backends.numba.cache.helper_options"
                    )
                return cls(py_func, py_file, path)

        impl._locator_classes.insert(0, _HelperLocator)
        _locator_installed = True


def helper_options(module_file: str) -> dict[str, Any]:
    """``njit`` options for the backend's helper functions defined in
    ``module_file`` (pass ``__file__``): cached on disk under the cache
    directory where it is usable (see the module docstring), else in memory."""
    import numba

    # NUMBA_CACHE_LOCATOR_CLASSES replaces Numba's locator list, ours included
    cache = not numba.config.CACHE_LOCATOR_CLASSES and _helper_dir(module_file) is not None
    if cache:
        _install_locator()
    # no_cfunc_wrapper: helpers are called from jitted code (and from Python),
    # never passed as first-class function values; the C wrapper Numba would
    # otherwise build and code-generate for every signature costs a quarter of
    # a small function's compile time
    return {"cache": cache, "error_model": "numpy", "nogil": True, "no_cfunc_wrapper": True}


def _write_source(root: Path, stem: str, path: Path, source: str) -> None:
    """Write ``source`` to ``path`` unless it is there already; a different
    text there (corrupted) is replaced, and its cache files dropped, with a
    warning."""
    try:
        existing = path.read_text() if path.exists() else None
    except (OSError, UnicodeDecodeError):
        existing = None
    if existing == source:
        return
    if existing is not None:
        warnings.warn(
            f"lazygraph numba cache source {path} is corrupted; rewriting it",
            CacheWarning,
            stacklevel=4,
        )
        for p in _cache_files(root, stem):
            with contextlib.suppress(OSError):
                p.unlink()
    _atomic_write(path, source.encode())


def load_source(source: str, persist: bool = True) -> ModuleType:
    """The module of ``source`` (generated kernel code), loaded once per process,
    from the disk cache when ``persist`` and a cache directory is available."""
    key = source_hash(source)
    with _lock:
        module = _modules.get(key)
        if module is not None:
            return module
        stem = _PREFIX + key
        root = cache_root() if persist else None
        if root is not None and not _trusted(root, stem):
            root = None
        if root is None:
            module = _exec_in_memory(source.replace("cache=True", "cache=False"), stem)
        else:
            path = root / stem / f"{stem}.py"
            for d in (root / stem, root / stem / "__pycache__"):
                d.mkdir(mode=0o700, exist_ok=True)
            with _locked(root, stem):
                _write_source(root, stem, path, source)
            name = f"lazygraph_numba_cache.{stem}"
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        dispatchers = _own_dispatchers(module)
        if root is not None:
            _guard(dispatchers, root, stem)
        for dispatcher in dispatchers:
            compile_lean(dispatcher)
        _modules[key] = module
        return module


def loaded_module(key: str) -> ModuleType:
    """The module already loaded for hash ``key`` (generated graph functions
    fetch their kernels with this)."""
    return _modules[key]


def is_loaded(key: str, module: ModuleType) -> bool:
    """Whether ``module`` is the module loaded for hash ``key`` (not dropped by
    :func:`forget_loaded`)."""
    return _modules.get(key) is module


def forget_loaded() -> None:
    """Drop the in-memory modules (tests of the disk cache use this to act as a
    fresh process would)."""
    with _lock:
        _modules.clear()
        for name in [n for n in sys.modules if n.startswith("lazygraph_numba_cache.")]:
            del sys.modules[name]
