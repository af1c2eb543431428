"""The documentation outside the site (docs/development.md): the README keeps
the two commands and stays short, and every relative link of the Markdown files that
`make docs` does not build (the README, the changelog, bench/) resolves inside the
repository, as mkdocs checks the pages under docs/."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO_ROOT

PAGES = ["README.md", "CHANGELOG.md", "bench/README.md", "bench/HISTORY.md"]
_LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def test_readme_shows_the_two_commands_and_stays_short() -> None:
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run" in text
    assert "make test" in text
    assert len(text.splitlines()) < 250


@pytest.mark.parametrize("page", PAGES)
def test_relative_links_resolve_in_the_repository(page: str) -> None:
    path = REPO_ROOT / page
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    broken = []
    for target in _LINK.findall(text):
        if ":" in target.split("/")[0] or target.startswith("#"):
            continue  # an external or anchor-only link
        resolved = (path.parent / target.partition("#")[0]).resolve()
        if not resolved.is_relative_to(REPO_ROOT.resolve()) or not resolved.exists():
            broken.append(target)
    assert broken == []
