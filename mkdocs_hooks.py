"""MkDocs hook: links from docs/ to files elsewhere in the repository.

The pages under docs/ link to repository files outside it (bench/HISTORY.md, the README)
with relative paths, so the links work wherever the Markdown is read in the repository.
MkDocs only knows the files under docs/ and would report each such link as broken. This
hook checks every one instead (a link to a file the repository does not have is a
warning, which `mkdocs build --strict` turns into a failure) and rewrites it for the
site: to the file on the repository's web view when `repo_url` is set, else to the link
text with the file's path in the repository. Links inside docs/ are left to MkDocs's
own validation.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

_log = logging.getLogger("mkdocs.hooks.repository_links")
_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Check and rewrite the page's links that leave docs/ (outside fenced code)."""
    docs_dir = Path(config["docs_dir"]).resolve()
    root = Path(config["config_file_path"]).resolve().parent
    here = (docs_dir / page.file.src_uri).parent
    repo_url = (config.get("repo_url") or "").rstrip("/")
    branch = config["extra"].get("repository_branch", "main")

    def rewrite(match: re.Match[str]) -> str:
        text, target = match["text"], match["target"]
        if ":" in target.split("/")[0] or target.startswith(("#", "/")):
            return match[0]  # an external, anchor-only or absolute link
        path, _, anchor = target.partition("#")
        resolved = (here / path).resolve()
        if resolved.is_relative_to(docs_dir):
            return match[0]  # MkDocs validates it
        if not resolved.is_relative_to(root) or not resolved.exists():
            _log.warning(
                "Doc file '%s' links to '%s', which is not in the repository",
                page.file.src_uri,
                target,
            )
            return match[0]
        relative = resolved.relative_to(root).as_posix()
        if repo_url:
            kind = "tree" if resolved.is_dir() else "blob"
            suffix = f"#{anchor}" if anchor else ""
            return f"[{text}]({repo_url}/{kind}/{branch}/{relative}{suffix})"
        return text if relative in text else f"{text} (`{relative}` in the repository)"

    parts = _FENCE.split(markdown)
    # split keeps the fence markers: text, marker, code, marker, text, ...
    out, inside = [], False
    for index, part in enumerate(parts):
        if index % 2 == 1:  # a fence marker
            out.append(part)
            inside = not inside
            continue
        out.append(part if inside else _LINK.sub(rewrite, part))
    return "".join(out)
