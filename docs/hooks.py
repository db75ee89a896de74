"""MkDocs hook: the study figures live once, beside their study in `results/`, and the pages link them
as `../results/NAME/figure.png` (a path that also works when the page is read on GitHub or on disk).
MkDocs reads only `docs/`, so this adds each linked figure to the site under `results/`, where those
links then point. A figure a page links that does not exist is not added, and the strict build fails
on the broken link."""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File, InclusionLevel

FIGURE = re.compile(r"\(\.\./(results/[^)\s]+\.png)\)")


def on_files(files, config):
    docs = Path(config["docs_dir"])
    root = docs.parent
    linked = sorted({m for page in docs.rglob("*.md") for m in FIGURE.findall(page.read_text(encoding="utf-8"))})
    for rel in linked:
        if (root / rel).is_file():
            # `..` would make MkDocs skip the file as hidden: it is asked for by name, so it is included
            files.append(File(f"../{rel}", config["docs_dir"], config["site_dir"], config["use_directory_urls"],
                              dest_uri=rel, inclusion=InclusionLevel.INCLUDED))
    return files
