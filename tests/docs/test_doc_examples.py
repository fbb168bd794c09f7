"""Every ```python block in README.md and docs/**/*.md runs, so examples cannot rot.

Blocks in one file run in order in one namespace (later blocks may use earlier
names). A block whose first line is ``# doctest: skip`` is not run; use that only
for examples that need something CI cannot have (a GPU), and say so in the text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC_FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)


def python_blocks(path: Path) -> list[str]:
    return blocks_of(path.read_text())


def blocks_of(text: str) -> list[str]:
    return [b for b in BLOCK.findall(text) if not b.startswith("# doctest: skip")]


FILES_WITH_CODE = [p for p in DOC_FILES if p.exists() and python_blocks(p)]


@pytest.mark.parametrize("path", FILES_WITH_CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_doc_examples_run(path: Path) -> None:
    namespace: dict[str, object] = {"__name__": f"doc_{path.stem}"}
    for i, block in enumerate(python_blocks(path)):
        code = compile(block, f"{path.relative_to(ROOT)} [block {i + 1}]", "exec")
        exec(code, namespace)


def test_block_pattern_finds_code() -> None:
    text = "intro\n```python\nx = 1\n```\n```bash\nls\n```\n```python\n# doctest: skip\ny\n```\n"
    assert blocks_of(text) == ["x = 1\n"]
