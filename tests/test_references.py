"""Every reference in the code resolves inside the repository (docs/development.md).

Docstrings and comments cite public rules (a FIDE article, a Law of Duplicate Bridge),
a source text by its title and section as `docs/rules/` writes it up, or a page of
`docs/`; never a number of a document a clone does not have: an issue or a finding, the
project's SPEC or DESIGN, a seed text by number, or a path into the shared reference
documents beside the repository. Every Markdown path a `.py` file names exists, and so
does the section its `#anchor` names.

`tests/data/refresh.py` is the one exception: it regenerates `tests/data` from those
shared documents and has to name them (tests/data/README.md says so).
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

SCANNED = ("service", "tests", "bench", "migrations", "mkdocs_hooks.py")
EXEMPT = {"tests/data/refresh.py", "tests/test_references.py"}

FORBIDDEN: dict[str, re.Pattern[str]] = {
    # "issue 12", "Issue #15", "finding 7", "findings 1-3", "(issue: ...)"; not the verb
    # ("the service issues 32 hex digits", "issue a token")
    "issue or finding": re.compile(
        r"\b(?:issue|finding)\s*#?\d+|\b(?:issues|findings)\s+#?\d+\s*(?:-|–|,|and\b)\s*\d+"
        r"|\((?:issue|finding)s?:",
        re.IGNORECASE,
    ),
    "SPEC or DESIGN": re.compile(r"\b(?:SPEC|DESIGN|STYLE)\b(?!_)"),
    "a seed text by number": re.compile(r"\bseeds?\s+0\d\d\b", re.IGNORECASE),
    "a shared document's path": re.compile(
        r"\.\./shared\b|\bshared/(?:seeds|reference|oracle|measured|SPEC|DESIGN)"
        r"|\breference/(?:chess-rules|bridge-scoring)\.md\b"
        r"|\boracle(?:/dutch)? README\b",
        re.IGNORECASE,
    ),
}
"""What a docstring or comment may not cite, by kind."""

MARKDOWN_PATH = re.compile(r"\b((?:docs|tests|bench)/[\w./-]*?\.md)(?:#([\w-]+))?")
"""A Markdown file of the repository named in code, with the section it points at."""


def _python_files(root: Path) -> list[Path]:
    found: list[Path] = []
    for name in SCANNED:
        path = root / name
        if path.is_dir():
            found.extend(sorted(path.rglob("*.py")))
        elif path.is_file():
            found.append(path)
    return [p for p in found if p.relative_to(root).as_posix() not in EXEMPT]


def offences(root: Path) -> list[str]:
    """`path:line: kind: text` for every forbidden citation under `root`."""
    found = []
    for path in _python_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for kind, pattern in FORBIDDEN.items():
                match = pattern.search(line)
                if match:
                    where = path.relative_to(root).as_posix()
                    found.append(f"{where}:{number}: {kind}: {match[0]!r}")
    return found


def slug(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc `slugify`)."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (fenced code left out)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.MULTILINE)}


def broken_paths(root: Path) -> list[str]:
    """`path:line: target` for every Markdown path or section named in code that the
    repository does not have."""
    found = []
    for path in _python_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for target, anchor in MARKDOWN_PATH.findall(line):
                page = root / target
                if not page.is_file() or (anchor and anchor not in anchors(page)):
                    where = path.relative_to(root).as_posix()
                    found.append(f"{where}:{number}: {target}{'#' + anchor if anchor else ''}")
    return found


def test_code_cites_nothing_outside_the_repository() -> None:
    assert offences(REPO_ROOT) == []


def test_every_markdown_path_named_in_code_exists() -> None:
    assert broken_paths(REPO_ROOT) == []


@pytest.mark.parametrize(
    "text",
    [
        "(issue 12: group commit)",
        "Issue #15 asks for",
        '"""Finding 7: a body"""',
        "(issue 12, findings 1-3)",
        "(issue: real files)",
        "(SPEC 7)",
        "DESIGN: Live standings",
        "seed 000, Zawodnicy",
        "Seed 001 section 5",
        "the README of shared/oracle/dutch",
        "reference/chess-rules.md 5.1",
        "(oracle/dutch README)",
    ],
)
def test_a_citation_outside_the_repository_is_caught(text: str, tmp_path: Path) -> None:
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "module.py").write_text(f"# {text}\n", encoding="utf-8")
    assert len(offences(tmp_path)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "The service issues 32 hex digits",
        "issue a new token for the role",
        "SPECTATOR_EVENTS_PER_TURN = 16",
        "SPEC_SCHEMA = REPO_ROOT",
        "random.Random(seed) draws; seed=0",
        "tests/data/seeds/000-flampark.json",
        "docs/decisions/shared-connect-reads.md",
        "FIDE C.04.3 A.7; Formuła FLAMPARK, Punktacja (docs/rules/flampark.md)",
    ],
)
def test_ordinary_text_passes(text: str, tmp_path: Path) -> None:
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "module.py").write_text(f"# {text}\n", encoding="utf-8")
    assert offences(tmp_path) == []


def test_a_missing_page_or_section_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "api.md").write_text("# API\n\n## Access and privacy\n")
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "module.py").write_text(
        "# docs/api.md#access-and-privacy, docs/api.md\n# docs/api.md#limits, docs/gone.md\n",
        encoding="utf-8",
    )
    assert broken_paths(tmp_path) == [
        "service/module.py:2: docs/api.md#limits",
        "service/module.py:2: docs/gone.md",
    ]
