"""The arbiter's audit trail in a TRF file: `### AUDIT` comment lines
(docs/rules/trf.md#audit-trail).

TRF-26 (Remark 1) allows comment lines anywhere, as long as the first three characters
are `###`; it defines no record for manual pairings, lots or changed settings (record
182 names the pairing controller, not each decision). The audit trail is written as
comment lines of one fixed shape, so that any TRF reader skips them and this one reads
them back:

    ### AUDIT <time> <actor> <action> <key>=<value> ...

`time` is UTC, `YYYY-MM-DDTHH:MM:SSZ`; `actor` the kind of writer (`organizer`,
`player`, `captain`) or `engine` for a lot the pairing program drew; `action` one of
`ACTIONS`; values are percent-encoded (RFC 3986) where they hold a space, a `%` or a
character outside printable ASCII. Lines are pure text: this module formats and reads
them, nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import quote, unquote

from service.engine.text import normalized_text, split_lines

__all__ = [
    "ACTIONS",
    "ACTORS",
    "AUDIT_MARK",
    "MAX_AUDIT_CHARACTERS",
    "MAX_AUDIT_LINES",
    "AuditEntry",
    "AuditRead",
    "audit_line",
    "audit_text",
    "read_audit",
]

AUDIT_MARK = "### AUDIT"
"""What starts an audit line: a TRF-26 comment (`###`) and the word AUDIT."""

ACTIONS = frozenset(
    {
        "pairing-by-hand",  # a round paired by hand where none was (PUT /rounds/{n})
        "pairing-replaced",  # a round's pairing replaced by hand (PUT /rounds/{n})
        "unpaired",  # a round's pairing taken back (DELETE /rounds/{n})
        "setting",  # a setting that steers pairing or ranking changed (PATCH)
        "lot",  # a lot the pairing program drew (initial colour, colour lots)
    }
)
"""The actions an audit line records."""

ACTORS = frozenset({"organizer", "player", "captain", "engine"})
"""Who acted: the kind of writer, never a token; `engine` for a drawn lot."""

MAX_AUDIT_LINES = 10_000
"""Audit lines one file may carry (kept verbatim on import); a tournament with a manual
change every round of 100 rounds writes a few hundred."""

MAX_AUDIT_CHARACTERS = 1_000_000
"""Characters the kept audit lines may hold together (they are stored with the
tournament's settings, read with them): a manual pairing of 500 players is a line of
about 2,500, a hundred of them 250,000."""

_SAFE = "!\"#$&'()*+,-./:;<=>?@[\\]^_`{|}~"
"""Printable ASCII kept as it is in a value (all but the space and `%`)."""
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_KEY = re.compile(r"[a-z][a-z0-9-]*")


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One decision of the trail: when, who, what, and its details in order."""

    when: datetime
    actor: str
    action: str
    fields: tuple[tuple[str, str], ...] = ()


def _stamp(when: datetime) -> str:
    moment = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def audit_line(entry: AuditEntry) -> str:
    """The entry as one `### AUDIT` comment line (naive times are read as UTC)."""
    parts = [AUDIT_MARK, _stamp(entry.when), entry.actor, entry.action]
    parts += [f"{key}={quote(value, safe=_SAFE)}" for key, value in entry.fields]
    return " ".join(parts)


def audit_text(kept: Sequence[str], entries: Sequence[AuditEntry]) -> str:
    """The trail as it closes a file: the lines an imported file carried (verbatim),
    then the tournament's own entries, one line each, every line ending the file's way
    (LF); empty when there is nothing to write."""
    lines = [*kept, *(audit_line(entry) for entry in entries)]
    return "".join(f"{line}\n" for line in lines)


@dataclass(frozen=True, slots=True)
class AuditRead:
    """The audit lines of a file: those kept (verbatim), and a warning per line that
    starts as one but does not read as one (it is dropped)."""

    lines: tuple[str, ...]
    entries: tuple[AuditEntry, ...]
    warnings: tuple[str, ...]


def read_audit(text: str) -> AuditRead:
    """The `### AUDIT` lines of a TRF file's text, in order. Other comment lines are not
    audit lines (a third-party file's comments are skipped as every reader skips them);
    the lines past `MAX_AUDIT_LINES` or `MAX_AUDIT_CHARACTERS` are dropped with one
    warning."""
    kept: list[str] = []
    entries: list[AuditEntry] = []
    warnings: list[str] = []
    characters = 0
    for line_no, raw in enumerate(split_lines(normalized_text(text)), 1):
        line = raw.rstrip()
        if line != AUDIT_MARK and not line.startswith(AUDIT_MARK + " "):
            continue
        entry = _parse(line)
        if entry is None:
            warnings.append(
                f"line {line_no}: an audit line that does not read as `{AUDIT_MARK} "
                "<time> <actor> <action> key=value ...` is dropped"
            )
            continue
        characters += len(line)
        if len(kept) == MAX_AUDIT_LINES or characters > MAX_AUDIT_CHARACTERS:
            warnings.append(
                f"line {line_no}: more than {MAX_AUDIT_LINES} audit lines or "
                f"{MAX_AUDIT_CHARACTERS} characters of them; the rest are dropped"
            )
            break
        kept.append(line)
        entries.append(entry)
    return AuditRead(tuple(kept), tuple(entries), tuple(warnings))


def _parse(line: str) -> AuditEntry | None:
    """The entry a line records, None when it does not have the audit line's shape."""
    words = line[len(AUDIT_MARK) :].split(" ")
    if len(words) < 4 or words[0] != "":
        return None
    stamp, actor, action, *pairs = words[1:]
    if not _TIME.fullmatch(stamp) or actor not in ACTORS or action not in ACTIONS:
        return None
    try:
        when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return None
    fields: list[tuple[str, str]] = []
    for pair in pairs:
        key, equals, value = pair.partition("=")
        if not equals or not _KEY.fullmatch(key):
            return None
        fields.append((key, unquote(value)))
    return AuditEntry(when, actor, action, tuple(fields))
