"""A griffe extension for the API pages: show the docstrings' doctest examples as code.

shashki's docstrings are plain text with doctest examples (``>>> ...`` and the expected output
below, up to a blank line), which the test suite runs.  Markdown would read an unindented
``>>>`` as three nested quotes, so this wraps each such example in a ``pycon`` fence before
mkdocstrings renders the docstring.  Indented examples are already Markdown code blocks and are
left alone.  mkdocs.yml loads it (plugins > mkdocstrings > options > extensions).
"""

import griffe


def fence_doctests(text):
    """`text` with every run of lines that starts with ``>>>`` at the left margin, up to the
    next blank line, put in a ```` ```pycon ```` fence."""
    out, in_example = [], False
    for line in text.split("\n"):
        if not in_example and line.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        elif in_example and not line.strip():
            out.append("```")
            in_example = False
        out.append(line)
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj, **kwargs):
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
