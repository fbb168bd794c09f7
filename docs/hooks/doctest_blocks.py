"""A Griffe extension for the API reference: docstring examples (``>>>`` lines and
the output after them, up to a blank line) become fenced ``pycon`` code blocks, so
they render as code instead of Markdown (where ``[0, 1]`` would read as a link).
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    out: list[str] = []
    in_block = False
    indent = 0
    for line in text.splitlines():
        stripped = line.lstrip()
        if not in_block and stripped.startswith(">>>"):
            in_block = True
            indent = len(line) - len(stripped)
            out += ["", "```pycon"]
        elif in_block and not stripped:
            in_block = False
            out.append("```")
        out.append(line[indent:] if in_block else line)
    if in_block:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
