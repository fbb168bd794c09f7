"""The three distributions talk through public names only, read from the source.

- ``lazygraph.numpy`` (lazygraph-numpy-api) never names a backend module
  (``lazygraph.backends...``): not in an import, not in a string handed to
  ``sys.modules`` or ``import_isolated``. What it needs of a backend (device
  placement, sharded compiles) goes through core: ``lazygraph.compile.devices``
  and ``lazygraph.compile.cached_function``'s ``compile_options``.
- No module uses a private name (``_name``: a private module, function,
  constant or attribute) of another distribution, whether imported
  (``from lazygraph.x import _y``, ``import lazygraph._x``), reached as an
  attribute (``lazygraph._y``, ``module._y`` of an imported module) or named
  in a ``"lazygraph.x._y"`` / ``"lazygraph.x:_y"`` string (lazy imports;
  docstrings are prose and not read).

Static scans of the files under ``packages/*/src``: nothing is imported.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

PACKAGES = Path(__file__).resolve().parents[2] / "packages"
NUMPY_API = "lazygraph-numpy-api"


@dataclass(frozen=True)
class Source:
    distribution: str
    module: str
    path: Path

    @property
    def where(self) -> str:
        if self.path.is_relative_to(PACKAGES):
            return str(self.path.relative_to(PACKAGES))
        return str(self.path)


@cache
def _sources() -> dict[str, Source]:
    """Module name -> its source, for every module of every distribution."""
    found: dict[str, Source] = {}
    for dist in sorted(p for p in PACKAGES.iterdir() if (p / "src").is_dir()):
        for path in sorted((dist / "src").rglob("*.py")):
            parts = list(path.relative_to(dist / "src").with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            module = ".".join(parts)
            found[module] = Source(dist.name, module, path)
    return found


def _distribution_of(name: str) -> str | None:
    """The distribution of module ``name`` (or of the module holding it)."""
    sources = _sources()
    while name:
        if name in sources:
            return sources[name].distribution
        name = name.rpartition(".")[0]
    return None


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


_DOTTED = re.compile(r"lazygraph(?:\.[A-Za-z_]\w*)+(?::[A-Za-z_]\w*)?")


def _cross_private_uses(source: Source) -> list[str]:
    """Every private name of another distribution that ``source`` uses."""
    tree = ast.parse(source.path.read_text(encoding="utf-8"), str(source.path))
    own = source.distribution
    hits: list[str] = []

    def check(dotted: str, lineno: int, how: str) -> None:
        """``dotted``: a name path starting at a module ("lazygraph.x._y")."""
        parts = dotted.split(".")
        for k in range(1, len(parts) + 1):
            prefix = ".".join(parts[:k])
            dist = _distribution_of(prefix)
            # a private part reached from a module of another distribution
            if k > 1 and _private(parts[k - 1]):
                owner = _distribution_of(".".join(parts[: k - 1]))
                if owner is not None and owner != own:
                    hits.append(f"{source.where}:{lineno}: {how} {dotted} ({owner})")
                    return
            if dist is None:
                break

    # names bound to modules or objects of lazygraph: alias -> dotted path
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "lazygraph":
                    continue
                check(alias.name, node.lineno, "import")
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound["lazygraph"] = "lazygraph"
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] != "lazygraph":
                continue
            for alias in node.names:
                if alias.name == "*":
                    check(node.module, node.lineno, "import from")
                    continue
                dotted = f"{node.module}.{alias.name}"
                check(dotted, node.lineno, "import")
                bound[alias.asname or alias.name] = dotted
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = [node.attr]
            base = node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in bound:
                dotted = ".".join([bound[base.id], *reversed(chain)])
                check(dotted, node.lineno, "attribute")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings  # (prose, not a lazy import)
        ):
            for match in _DOTTED.finditer(node.value):
                check(match.group().replace(":", "."), node.lineno, "string")
    return hits


def test_the_scan_knows_every_distribution() -> None:
    dists = {s.distribution for s in _sources().values()}
    assert dists == {"lazygraph-core", NUMPY_API, "lazygraph-backends"}, dists
    assert _distribution_of("lazygraph.numpy._array") == NUMPY_API
    assert _distribution_of("lazygraph.backends.jax.device") == "lazygraph-backends"
    assert _distribution_of("lazygraph.tensor.reduction") == "lazygraph-core"


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan itself, on a made-up module of lazygraph.numpy."""
    path = tmp_path / "made_up.py"
    path.write_text(
        "import sys\n"
        "import lazygraph\n"
        "import lazygraph.tensor.reduction as red\n"
        "from lazygraph.tensor.reduction import _hidden, public\n"
        "from lazygraph.tensor.linalg._common import as_matrix_stack\n"
        "from lazygraph.numpy._array import _Mine\n"  # its own: allowed
        "red._other\n"
        "lazygraph._version_of\n"
        "sys.modules.get('lazygraph.backends.jax.device')._placed\n"
        "LAZY = 'lazygraph.graph.basic:_gc'\n"
    )
    hits = _cross_private_uses(Source(NUMPY_API, "lazygraph.numpy.made_up", path))
    found = sorted(h.split(": ", 1)[1] for h in hits)
    assert found == [
        "attribute lazygraph._version_of (lazygraph-core)",
        "attribute lazygraph.tensor.reduction._other (lazygraph-core)",
        "import lazygraph.tensor.linalg._common.as_matrix_stack (lazygraph-core)",
        "import lazygraph.tensor.reduction._hidden (lazygraph-core)",
        "string lazygraph.graph.basic._gc (lazygraph-core)",
    ], found


def _numpy_api_sources() -> list[Source]:
    return [s for s in _sources().values() if s.distribution == NUMPY_API]


@pytest.mark.parametrize("source", _numpy_api_sources(), ids=lambda s: s.module)
def test_lazygraph_numpy_names_no_backend_module(source: Source) -> None:
    text = source.path.read_text(encoding="utf-8")
    lines = [
        f"{source.where}:{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if "lazygraph.backends" in line
    ]
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "lazygraph"
            and any(a.name == "backends" for a in node.names)
        ):
            lines.append(f"{source.where}:{node.lineno}: from lazygraph import backends")
    assert not lines, (
        "lazygraph.numpy must reach backends through core (lazygraph.compile), "
        "not by naming their modules:\n" + "\n".join(lines)
    )


def test_no_private_name_crosses_a_distribution() -> None:
    hits = [h for s in _sources().values() for h in _cross_private_uses(s)]
    assert not hits, (
        "private names used across distributions (make them public in their own "
        "distribution, or go through a public entry point):\n" + "\n".join(hits)
    )


def test_core_names_the_distribution_that_provides_the_transforms() -> None:
    """Core's ``lazygraph.grad`` comes from lazygraph-numpy-api: without it, an
    AttributeError says what to install (not a bare ModuleNotFoundError)."""
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['lazygraph.numpy'] = None\n"
        "import lazygraph\n"
        "print(lazygraph.function.__name__)\n"
        "try:\n"
        "    lazygraph.grad\n"
        "except AttributeError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[0] == "function"
    assert "pip install lazygraph-numpy-api" in out.stdout


#: the most lines a source file may have: modules by family, not grab-bags
MAX_LINES = 800


def test_no_source_file_is_over_the_line_limit() -> None:
    long = {
        str(path.relative_to(PACKAGES)): n
        for path in PACKAGES.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"split these by family (more than {MAX_LINES} lines): {long}"
