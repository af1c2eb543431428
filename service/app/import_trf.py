"""Import a TRF file as a new tournament (docs/rules/trf.md): decoding, the API's own
limits, the declared system, the file's points against its results, and what the file
carried beside the games, then the tournament stored in the file's round state.

The file's audit trail (`### AUDIT` comment lines, docs/rules/trf.md#audit-trail) is
kept verbatim for the export, and what it settles (a drawn initial colour, the lots'
seed, changed tie-breaks) is applied.

`read_import` and the functions under it are pure; the workflow (`import_trf`) runs
`read_import` in the CPU pool (off the event loop: every step is linear in the file),
then stores the tournament, its players, rounds and `imported` event, and moves it to
running (finished when every declared round is there and complete).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Literal

from sqlmodel.ext.asyncio.session import AsyncSession

from service.app.import_swiss_records import swiss_records
from service.app.lifecycle import move, settle_status
from service.app.offload import run_cpu
from service.app.trf_setting_records import read_tiebreak_record
from service.db.event_types import Imported
from service.db.events import append_event
from service.db.repository import create_tournament, store_players, store_rounds
from service.db.tables import TournamentRow
from service.db.tokens import hash_token, new_token
from service.db.tournament_config import SwissOptions
from service.engine.lifecycle import LifecycleEvent
from service.engine.model import Bye, ByeKind, Colour, Player, Round, Tournament
from service.engine.scoring.tiebreaks.errors import TieBreakError
from service.engine.scoring.tiebreaks.registry import parse_tiebreak
from service.engine.systems import SYSTEMS, SystemName, spec_of, system_from_trf
from service.engine.teams.systems import team_spec_of
from service.engine.trf import TrfDocument, TrfError, decode_trf, parse_trf, points_mismatches
from service.engine.trf_audit import AuditRead, read_audit
from service.engine.trf_check import infer_initial_colour
from service.errors import InvalidInput

__all__ = [
    "ImportedFile",
    "ImportedTournament",
    "PointsChoice",
    "audit_settings",
    "decode_trf",
    "export_system",
    "import_points",
    "import_system",
    "import_trf",
    "player_extra",
    "player_rows",
    "read_import",
    "reconcile_points",
    "round_one_colour",
    "stored_trf",
    "validate_limits",
]

PointsChoice = Literal["results", "file"]
"""Which stands when the points column disagrees with the results: `results` (the
default; the response warns) or `file` (unscored rounds become the byes that make the
file's points true, else 422)."""

MAX_ROUNDS = 100
"""As POST /v1/tournaments: total_rounds 1..100."""
MAX_RATING = 4000
"""As POST /players: rating 0..4000."""
MAX_NAME = 200
MAX_PLAYERS = 10_000


@dataclass(frozen=True, slots=True)
class ImportedFile:
    """A TRF file read for import: the document (points reconciled), the tournament's
    system, settings and warnings, its players' rows and their tokens (shown once)."""

    doc: TrfDocument
    system: str
    settings: dict[str, Any]
    warnings: list[str]
    players: list[dict[str, Any]]
    """Rows of the `players` table, the tournament's id aside."""
    issued: list[dict[str, Any]]
    """`start_number`, `name`, `token` of each player."""


def read_import(raw: bytes, points: PointsChoice) -> ImportedFile:
    """Decode, read and check a TRF file for import; refusals are `InvalidInput` naming
    the line (and columns). CPU-bound and pure: the route runs it in the CPU pool."""
    text = decode_trf(raw)
    try:
        doc = parse_trf(text)
    except TrfError as error:
        raise InvalidInput(str(error), field="body") from None
    validate_limits(doc)
    doc, warnings = reconcile_points(doc, points)
    system, swiss, system_warnings = import_system(doc)
    points_settings, points_warnings = import_points(doc)
    records = swiss_records(doc, system)  # 240/250/260 into the Swiss settings
    swiss.update(records.settings)
    announced = {(b["player"], b["round"]) for b in records.settings.get("byes", ())}
    tiebreaks, headers = read_tiebreak_record(records.headers)  # TRF-26 202
    kept = replace(
        doc,
        headers=headers,
        next_round_byes=tuple(
            b for b in doc.next_round_byes if (b.player, b.round) not in announced
        ),
    )
    audit = read_audit(text)
    settings: dict[str, Any] = {"source": "trf", "trf": stored_trf(kept)}
    if audit.lines:
        settings["trf"]["audit"] = list(audit.lines)
    lots, audited, audit_warnings = audit_settings(audit, system)
    swiss = {**lots, **swiss}  # the file's XXC / 152 first
    if system in _LOT_SYSTEMS and "initial_colour" not in swiss:
        played = round_one_colour(doc.tournament)  # no record says it: round 1 does
        if played is not None:
            swiss["initial_colour"] = played
    settings.update(audited)
    if tiebreaks is not None:  # the file's 202 over the trail's last tie-breaks
        settings["tiebreaks"] = tiebreaks
    if swiss:
        settings["swiss"] = swiss
    if points_settings is not None:
        settings["points"] = points_settings
    warnings = system_warnings + warnings + points_warnings + records.warnings
    warnings += [*audit.warnings, *audit_warnings]
    players, issued = player_rows(doc)
    return ImportedFile(doc, system, settings, warnings, players, issued)


_LOT_SYSTEMS = frozenset(s.name.value for s in SYSTEMS.values() if s.initial_colour_lot)
"""Systems whose initial colour is drawn by lot when the organizer does not set it."""


def round_one_colour(tournament: Tournament) -> str | None:
    """The initial colour round 1 shows, for a file whose records do not say it: the
    colour of the highest-ranked participant (lowest start number) who played a game
    in round 1, as TRF-26 152 defines it ("mandatory only if it differs from the colour
    of the highest ranked participant who was paired in the first round"). None before
    round 1, or when round 1 has no game."""
    if not tournament.rounds or tournament.rounds[0].number != 1:
        return None
    colour = infer_initial_colour(replace(tournament, initial_colour=None))
    if colour is None:
        return None
    return "white" if colour is Colour.WHITE else "black"


def audit_settings(
    audit: AuditRead, system: str
) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """What a file's audit trail settles for the tournament made of it
    (docs/rules/trf.md#audit-trail): Swiss options (the initial colour the lot gave,
    `lot draw=initial-colour`, or the organizer set, `setting name=initial_colour`, and
    the seed of the lots, so that the next rounds draw as the file's tournament would),
    the tie-breaks of the last `setting name=tiebreaks` line, and warnings for what
    cannot be applied."""
    swiss: dict[str, Any] = {}
    settings: dict[str, Any] = {}
    warnings: list[str] = []
    lots = system in _LOT_SYSTEMS
    for entry in audit.entries:
        fields = dict(entry.fields)
        if entry.action == "lot" and lots:
            colour = fields.get("colour")
            if fields.get("draw") == "initial-colour" and colour in ("white", "black"):
                swiss["initial_colour"] = colour
            seed = fields.get("seed", "")
            if seed.lstrip("-").isdigit() and abs(int(seed)) < 2**63:
                swiss["seed"] = int(seed)
        elif entry.action == "setting" and fields.get("name") == "initial_colour" and lots:
            colour = fields.get("after", "").strip('"')
            if colour in ("white", "black"):
                swiss["initial_colour"] = colour
        elif entry.action == "setting" and fields.get("name") == "tiebreaks":
            codes = _tiebreaks(fields.get("after", ""))
            if codes is False:
                settings.pop("tiebreaks", None)
                warnings.append(
                    f"audit trail: tie-breaks {fields.get('after', '')!r} are not a list "
                    "of tie-break codes; the system's default tie-breaks apply"
                )
            else:
                settings["tiebreaks"] = codes
    return swiss, settings, warnings


def _tiebreaks(text: str) -> list[str] | Literal[False] | None:
    """A `setting name=tiebreaks` value: the codes, None (the system's default), or
    False when it is not a list of tie-break codes."""
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        return False
    try:
        for code in value:
            parse_tiebreak(code)
    except TieBreakError:
        return False
    return value


def player_rows(doc: TrfDocument) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each player's row (the file's start numbers are also the entry numbers: the
    start list is the entry order) and their tokens, made here rather than on the event
    loop: a file holds up to MAX_PLAYERS of them."""
    rows: list[dict[str, Any]] = []
    issued: list[dict[str, Any]] = []
    for player in doc.tournament.players:
        token = new_token("ply")
        extra = player_extra(doc, player)
        rows.append(
            {
                "number": player.start_number,
                "start_number": player.start_number,
                "name": player.name,
                "rating": player.rating,
                "fide_id": (player.fide_id or "")[:20] or None,
                "federation": player.federation,
                "sex": _sex(player.sex),
                "birth_year": player.birth_year,
                "token_hash": hash_token(token),
                "token_expires_at": None,
                "extra": {"trf": extra} if extra else {},
            }
        )
        issued.append({"start_number": player.start_number, "name": player.name, "token": token})
    return rows, issued


def _sex(code: str | None) -> str | None:
    """TRF column 10: m / w (f read as w, any case)."""
    if not code:
        return None
    letter = code.lower()
    return "w" if letter == "f" else letter


def _bad(doc: TrfDocument, number: int, detail: str) -> InvalidInput:
    return InvalidInput(f"line {doc.lines.get(number, 0)}, {detail}", field="body")


def validate_limits(doc: TrfDocument) -> None:
    """The JSON API's limits, applied to a file (else XXR -3 or rating 9999 would be stored).

    Each refusal names the line (and columns) of the record."""
    tournament = doc.tournament
    count = len(tournament.players)
    if count == 0:
        raise InvalidInput("the TRF file has no 001 player records", field="body")
    if count < 2:
        raise InvalidInput("a TRF file needs at least 2 players (001 records)", field="body")
    if count > MAX_PLAYERS:
        raise InvalidInput(f"a TRF file holds at most {MAX_PLAYERS} players", field="body")
    for player in tournament.players:
        number = player.start_number
        if not 1 <= number <= 9999:
            raise _bad(doc, number, f"columns 5-8: start number {number} is outside 1..9999")
        if not player.name:
            raise _bad(doc, number, "columns 15-47: the name is blank")
        if len(player.name) > MAX_NAME:
            raise _bad(doc, number, f"columns 15-47: the name exceeds {MAX_NAME} characters")
        if not 0 <= player.rating <= MAX_RATING:
            raise _bad(
                doc, number, f"columns 49-52: rating {player.rating} is outside 0..{MAX_RATING}"
            )
        if player.birth_year is not None and not 1880 <= player.birth_year <= 2100:
            raise _bad(doc, number, f"columns 70-73: birth year {player.birth_year} is outside")
        if player.sex is not None and player.sex.lower() not in ("m", "w", "f"):
            raise _bad(doc, number, f"column 10: sex {player.sex!r} is not m or w")
    total = tournament.total_rounds
    played = len(tournament.rounds)
    code = "XXR" if "XXR" in doc.header_lines else "142"
    where = f"line {doc.header_lines.get(code, 0)}, record {code}"
    if total is not None and not 1 <= total <= MAX_ROUNDS:
        raise InvalidInput(f"{where}: {total} rounds is outside 1..{MAX_ROUNDS}", field="body")
    if played > MAX_ROUNDS:
        raise InvalidInput(f"the file holds {played} rounds; at most {MAX_ROUNDS}", field="body")
    if total is not None and played > total:
        raise InvalidInput(
            f"{where}: {total} rounds, but the players' records hold {played}", field="body"
        )


def import_system(doc: TrfDocument) -> tuple[str, dict[str, Any], list[str]]:
    """The Arbiter system, its Swiss settings and warnings for records 092/192.

    The registry reads the record (engine/systems.py: FIDE_DUTCH_2025/2017 and "Swiss"
    wordings -> swiss-dutch, 2017 rules for the 2017 code; JCA -> swiss-jca; round
    robin / Berger wordings -> round-robin, double-round-robin when it says double).
    Team systems and FLAMPARK are refused (a FLAMPARK schedule is not rebuilt from a
    file); another Swiss (Burstein, Dubov, Lim) or an unknown text is imported as a
    Dutch Swiss with a warning."""
    declared = (doc.system or "").upper()
    if "TEAM" in declared:
        raise InvalidInput(f"092/192 {doc.system!r}: team events are not supported", field="body")
    spec = system_from_trf(declared)
    if spec is not None and spec.name == SystemName.FLAMPARK:
        raise InvalidInput(
            "092/192 FLAMPARK: a FLAMPARK schedule cannot be rebuilt from TRF; create it "
            "with POST /v1/tournaments",
            field="body",
        )
    warnings: list[str] = []
    if spec is None:
        spec = SYSTEMS[SystemName.SWISS_DUTCH]
        if declared:
            warnings.append(
                f"092/192 {doc.system!r} is not a system Arbiter pairs; imported as a Dutch "
                "Swiss (C.04.3)"
            )
    swiss: dict[str, Any] = {}
    if spec.name == SystemName.SWISS_DUTCH and "2017" in declared:
        swiss["rules"] = "dutch-2017"
    initial = doc.tournament.initial_colour
    if spec.initial_colour_lot and initial is not None:
        swiss["initial_colour"] = "white" if initial.value == "w" else "black"
    return spec.name.value, swiss, warnings


def import_points(doc: TrfDocument) -> tuple[dict[str, float] | None, list[str]]:
    """Settings `points` from TRF-26 record 162 (None when the file keeps 1/½/0), and
    warnings for what the tournament's point settings cannot hold (a half-point bye or
    an absence worth other than a draw and 0). Points must be as the JSON API takes
    them (0..100 in halves), else 422 naming the line."""
    points = doc.tournament.points
    line = doc.header_lines.get("162", 0)
    bye = points.for_bye(ByeKind.PAIRING_ALLOCATED)
    values = {"win": points.win, "draw": points.draw, "loss": points.loss, "bye": bye}
    for name, value in values.items():
        if not 0 <= value <= 100 or (value * 2).denominator != 1:
            raise InvalidInput(
                f"line {line}: record 162 gives {_show(value)} points for {name}; points "
                "are 0..100 in steps of 0.5",
                field="body",
            )
    warnings = []
    if points.for_bye(ByeKind.HALF_POINT) != points.draw:
        warnings.append(
            f"line {line}: record 162 X (the half-point bye) is not applied: the tournament "
            "counts a half-point bye as a draw"
        )
    if points.zero_bye != 0:
        warnings.append(
            f"line {line}: record 162 A (an absence) is not applied: the tournament counts "
            "an absence as 0"
        )
    if "162" not in doc.header_lines:
        return None, warnings
    settings = {name: float(value) for name, value in values.items()}
    if bye == points.win:
        settings.pop("bye")
    return settings, warnings


def export_system(system: str, swiss: SwissOptions | None) -> str:
    """Record 092 for a tournament's own system: the registry's code (TRF-26 192 codes
    where FIDE has one), FIDE_DUTCH_2017 for a Dutch Swiss paired by the 2017 rules."""
    team = team_spec_of(system)
    if team is not None:
        return team.trf_code
    spec = spec_of(system)
    if spec is None:
        return system.upper()
    dutch_2017 = swiss is not None and swiss.rules == "dutch-2017"
    if spec.name == SystemName.SWISS_DUTCH and dutch_2017:
        return "FIDE_DUTCH_2017"
    return spec.trf_code


def reconcile_points(doc: TrfDocument, choice: PointsChoice) -> tuple[TrfDocument, list[str]]:
    """The file's points column against its results.

    `results`: the results stand; one warning per player whose column differs.
    `file`: a player's zero-point byes (blank cells, `Z`) become half- or full-point
    byes, earliest round first, until the results give the file's points; a difference
    no bye can explain is refused (422 naming the line). When the difference is half a
    point for each of those rounds, each is a half-point bye: a full-point bye beside a
    zero-point one would say that one round was an allocated (or requested full) bye and
    the next an absence, while TRF-16 (C.04.A.10, Annex-2) leaves such cells without a
    result and a player requests half-point byes far more often (SwissPerfect files of
    the Irish Chess Union write their byes this way)."""
    mismatches = points_mismatches(doc)
    if choice == "results":
        return doc, [
            f"line {doc.lines.get(n, 0)}, columns 81-84: player {n}'s points are "
            f"{_show(given)} in the file, {_show(scored)} by the results; the results stand "
            "(import with ?points=file to keep the file's)"
            for n, (given, scored) in mismatches.items()
        ]
    changes: dict[tuple[int, int], ByeKind] = {}
    warnings: list[str] = []
    rounds = doc.tournament.rounds
    cells = [_Cells.of(rnd) for rnd in rounds]
    for number, (given, scored) in mismatches.items():
        missing = given - scored
        unscored = [rnd for rnd, cell in zip(rounds, cells, strict=True) if cell.unscored(number)]
        halves = missing == Fraction(len(unscored), 2)
        for rnd in unscored:
            if missing <= 0:
                continue
            kind = ByeKind.FULL_POINT if missing >= 1 and not halves else ByeKind.HALF_POINT
            changes[(rnd.number, number)] = kind
            missing -= 1 if kind is ByeKind.FULL_POINT else Fraction(1, 2)
            warnings.append(
                f"player {number}, round {rnd.number}: read as a {kind.value} bye "
                "to match the file's points"
            )
        if missing != 0:
            raise _bad(
                doc,
                number,
                f"columns 81-84: player {number}'s points are {_show(given)} in the file, "
                f"{_show(scored)} by the results, and no unscored round explains it",
            )
    by_round: dict[int, dict[int, ByeKind]] = {}
    for (round_no, number), kind in changes.items():
        by_round.setdefault(round_no, {})[number] = kind
    changed = tuple(_with_byes(rnd, by_round.get(rnd.number, {})) for rnd in rounds)
    return replace(doc, tournament=replace(doc.tournament, rounds=changed)), warnings


@dataclass(frozen=True, slots=True)
class _Cells:
    """A round's cells by player: who played, and the kind of each bye (looked up in
    constant time, so that reconciling every player stays linear in the file)."""

    seated: frozenset[int]
    byes: dict[int, ByeKind]

    @classmethod
    def of(cls, rnd: Round) -> _Cells:
        seated = frozenset(p for g in rnd.games for p in (g.white, g.black))
        return cls(seated, {b.player: b.kind for b in rnd.byes})

    def unscored(self, number: int) -> bool:
        """A zero-point bye, or a blank cell (no game, no bye) in a paired round."""
        if number in self.seated:
            return False
        return self.byes.get(number, ByeKind.ZERO_POINT) is ByeKind.ZERO_POINT


def _with_byes(rnd: Round, changes: dict[int, ByeKind]) -> Round:
    if not changes:
        return rnd
    byes = {b.player: b for b in rnd.byes}
    for number, kind in changes.items():
        byes[number] = Bye(rnd.number, number, kind)
    return Round(rnd.number, rnd.games, tuple(byes[n] for n in sorted(byes)))


def _show(points: Fraction) -> str:
    return f"{float(points):g}"


def stored_trf(doc: TrfDocument) -> dict[str, Any]:
    """What the tournament keeps of the file (settings["trf"]): header records verbatim
    (in order; 001 and XX records excepted) and the byes announced for the next round."""
    return {
        "headers": [[code, rest] for code, rest in doc.headers],
        "next_round_byes": [
            {"round": b.round, "player": b.player, "type": b.kind.value}
            for b in doc.next_round_byes
        ],
    }


def player_extra(doc: TrfDocument, player: Player) -> dict[str, Any]:
    """What a player keeps of the file (players.extra["trf"]): title, birth date text,
    a rating written `0` (rather than blank)."""
    number = player.start_number
    kept: dict[str, Any] = {}
    if player.title:
        kept["title"] = player.title
    if number in doc.birth_dates:
        kept["birth_date"] = doc.birth_dates[number]
    if number in doc.rating_zero:
        kept["rating_zero"] = True
    return kept


@dataclass(frozen=True, slots=True)
class ImportedTournament:
    """The tournament an import stored, its organizer token and its players' tokens
    (shown once), and the warnings about what the file held."""

    tournament: TournamentRow
    organizer_token: str
    player_tokens: list[dict[str, Any]]
    """`start_number`, `name`, `token` of each player."""
    warnings: list[str]


async def import_trf(session: AsyncSession, raw: bytes, points: PointsChoice) -> ImportedTournament:
    """The workflow: read the file off the event loop (`read_import`), store the
    tournament, its players and rounds (bulk inserts) and its `imported` event, in the
    file's round state."""
    imported = await run_cpu(read_import, raw, points)
    tournament = imported.doc.tournament
    row, token = await create_tournament(
        session,
        name=(tournament.name or "Imported tournament")[:200],
        system=imported.system,
        settings=imported.settings,
        total_rounds=tournament.total_rounds or len(tournament.rounds) or None,
    )
    await store_players(session, row, imported.players)
    await store_rounds(session, row, tournament.rounds)
    paired = len(tournament.rounds)
    complete = all(g.result is not None for r in tournament.rounds for g in r.games)
    row.current_round = paired
    move(row, LifecycleEvent.START)
    settle_status(
        row, finished=complete and row.total_rounds is not None and paired >= row.total_rounds
    )
    session.add(row)
    await append_event(session, row.id, Imported(len(tournament.players), paired))
    return ImportedTournament(row, token, imported.issued, imported.warnings)
