"""FIDE TRF-16 reading and writing, with the JaVaFo extensions XXR, XXC, XXA and XXP.

Layout (FIDE TRF-16; docs/rules/trf.md): a `001` record per player, columns
1-based: 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating, 54-56
federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank, then one
10-column round cell from column 92: `OOOO C R` (opponent, colour, result).

Readings taken:
- A round column that holds games or a pairing-allocated bye is a *paired* round. A
  trailing column that holds only H/F/Z entries is a set of byes announced before the
  next round is paired (as the FIDE-endorsed engines read a file to pair its next
  round; docs/rules/trf.md); it is returned as `next_round_byes`.
- A cell with an opponent and result `+`/`-` is a forfeited pairing; `-` on both sides
  is a double forfeit. `W`/`D`/`L` (games of under one move) count as 1-0/½/0-1 played.
- Round trip: `write_trf(parse_trf(text))` reproduces a well-formed file's records
  (header records are kept verbatim, in their order).
- Real files (Swiss-Manager, SwissPerfect, Vega, Lichess, legacy Krause): a cell with no
  opponent (`0000` or blank) and result `+`/`1` is a bye worth a win (`U` when it is the
  round's only one, else `F`), `=`/`D` a half-point bye, `-`/`0`/blank a zero-point
  bye. A forfeit between two players with colour `-` is stored with the lower start
  number as White (colours of unplayed games count for nothing, C.04.1 f). A byte-order
  mark is ignored. TRF-26 records 142 (rounds), 152 (initial colour) and 192 (system)
  are read like XXR, XXC and 092; team records (013, 310, 320, 330, 801, 802) are
  refused: team events are not supported.
- Contradictions are refused with the line and columns: two players who both claim
  White (or Black) against each other, results that do not add up (1-1, 0-0), a player
  whose opponent lists someone else, a cell cut short.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import lcm

from service.engine.errors import EngineError
from service.engine.model import (
    MAX_PLAYER_ROUNDS,
    Bye,
    ByeKind,
    Colour,
    Game,
    GameResult,
    Player,
    PointSystem,
    Round,
    Tournament,
)
from service.engine.text import first_control, normalized_text, split_lines

__all__ = [
    "MAX_HEADER_CHARACTERS",
    "MAX_HEADER_RECORDS",
    "NO_PLAYERS",
    "TEAM_RECORDS",
    "Prohibition",
    "TrfDocument",
    "TrfError",
    "decode_trf",
    "parse_trf",
    "points_mismatches",
    "rounds_prefix",
    "write_trf",
]

_CELL_START = 91  # 0-based index of round 1's cell
_CELL_WIDTH = 10
_BYE_LETTERS = frozenset("UFHZ")
TEAM_RECORDS = frozenset({"013", "310", "320", "330", "801", "802"})
"""TRF-16 013 and TRF-26 310-330/801-802: team composition and team results."""


class TrfError(EngineError):
    """A TRF file that cannot be read; the message names the line and the field."""


MAX_KEPT_APART = 100_000
"""Pairs that the XXP and 260 records of one file may keep apart. A record keeps every
two of its k players apart, k(k - 1)/2 pairs: a group of 447 players reaches the bound,
far more than any event's forbidden pairs, while a few megabytes of XXP would otherwise
ask for billions."""

MAX_ACCELERATED = 1_000_000
"""Player-rounds the 250 records of one file may accelerate: each gives points to a range
of start numbers over a range of rounds, (last - first + 1) x (rounds) entries to build,
and a few megabytes of 250 lines over 9,999 start numbers and 999 rounds would ask for
trillions. A 5,000-player open accelerating two groups over five rounds uses 25,000."""

MAX_HEADER_RECORDS = 1_000
"""Records one file may carry beside its players (001) and the XXA and XXP extensions:
the TRF-16 header records (012-132, one each, 112 once per deputy arbiter), TRF-26's
(142-232, 240 per round and bye type, 250 and 260 per group), XXR, XXC and unknown
codes. They are kept verbatim for the export, so a tournament keeps (and reads back)
at most this many; a real file carries a few dozen."""

MAX_HEADER_CHARACTERS = 100_000
"""Characters the header records of one file may hold together, codes included: a 240
record listing 10,000 start numbers is 50,000."""

NO_PLAYERS = "the TRF file has no 001 player records"
"""The one message for a file that is not a TRF file (garbage, binary, empty): the
compute endpoints and `arbiter pair | standings | check` say the same."""


def decode_trf(raw: bytes) -> str:
    """A file's text: UTF-8 (a byte-order mark dropped), else Windows-1252 / Latin-1 as
    older federation programs write it."""
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


@dataclass(frozen=True, slots=True)
class TrfDocument:
    """A parsed TRF file: the tournament plus what TRF carries beside it."""

    tournament: Tournament
    """Players and paired rounds (XXR -> total_rounds, XXC -> initial_colour)."""
    next_round_byes: tuple[Bye, ...] = ()
    """Byes announced for the round after the last paired one (H/F/Z cells)."""
    accelerations: Mapping[int, tuple[Fraction, ...]] = field(default_factory=dict)
    """XXA: virtual points per player and round (Baku acceleration)."""
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    """XXP: pairs that must not meet."""
    prohibitions: tuple[Prohibition, ...] = ()
    """TRF-26 record 260: groups that must not meet within a range of rounds."""
    accelerations_250: tuple[tuple[int, int, int, int, Fraction], ...] = ()
    """TRF-26 record 250: (first round, last round, first player, last player, game
    points) per record; the record itself is written back among the headers."""
    system: str | None = None
    """Record 092 / 192: the pairing system the file declares."""
    headers: tuple[tuple[str, str], ...] = ()
    """Other records, verbatim (code, rest of line), in file order."""
    birth_dates: Mapping[int, str] = field(default_factory=dict)
    """Birth date text (cols 70-79) per start number, kept for the round trip."""
    ranks: Mapping[int, int] = field(default_factory=dict)
    """Rank column per start number, as the file gave it."""
    file_points: Mapping[int, Fraction] = field(default_factory=dict)
    """Points column (cols 81-84) per start number, as the file gave it."""
    rating_zero: frozenset[int] = frozenset()
    """Start numbers whose rating field was written `0` (an unrated player is written
    blank otherwise)."""
    lines: Mapping[int, int] = field(default_factory=dict)
    """Line number of each player's 001 record (for error messages)."""
    header_lines: Mapping[str, int] = field(default_factory=dict)
    """Line number of the first record of each header code."""

    @property
    def pairing_accelerations(self) -> dict[int, tuple[Fraction, ...]]:
        """Virtual points per player and round for pairing: XXA's plus record 250's."""
        return _with_250(self.accelerations, self.accelerations_250)

    def forbidden_for(self, round_no: int) -> tuple[frozenset[int], ...]:
        """The pairs that must not meet in round `round_no`: XXP's, and those of every
        record 260 whose rounds include it (TRF-26)."""
        ranged = (
            frozenset((a, b))
            for rule in self.prohibitions
            if rule.first_round <= round_no <= rule.last_round
            for i, a in enumerate(rule.players)
            for b in rule.players[i + 1 :]
        )
        return tuple(dict.fromkeys((*self.forbidden_pairs, *ranged)))


@dataclass(frozen=True, slots=True)
class Prohibition:
    """TRF-26 record 260: no two of `players` meet in rounds first..last."""

    first_round: int
    last_round: int
    players: tuple[int, ...]


def rounds_prefix(doc: TrfDocument, rounds: int) -> TrfDocument:
    """The document as it stood before round `rounds + 1` was paired.

    Keeps rounds 1..`rounds`; the announced byes (H/F/Z) of the next round become
    `next_round_byes`, the input a FIDE-endorsed engine pairs the next round from.
    """
    tournament = doc.tournament
    if not 0 <= rounds <= len(tournament.rounds):
        raise TrfError(f"rounds: {rounds} is outside 0..{len(tournament.rounds)}")
    if rounds < len(tournament.rounds):
        announced = tuple(
            bye
            for bye in tournament.rounds[rounds].byes
            if bye.kind is not ByeKind.PAIRING_ALLOCATED
        )
    else:
        announced = doc.next_round_byes
    return replace(
        doc,
        tournament=replace(tournament, rounds=tournament.rounds[:rounds]),
        next_round_byes=announced,
    )


def parse_trf(text: str) -> TrfDocument:
    """Read a TRF-16 or TRF-26 file (LF, CRLF or CR line ends; a leading BOM and a trailing
    MS-DOS end-of-file mark are ignored)."""
    players: list[Player] = []
    file_points: dict[int, Fraction] = {}
    rating_zero: set[int] = set()
    lines: dict[int, int] = {}
    header_lines: dict[str, int] = {}
    rounds_142: int | None = None
    announced_240: list[Bye] = []
    cells: dict[int, list[str]] = {}
    headers: list[tuple[str, str]] = []
    accelerations: dict[int, tuple[Fraction, ...]] = {}
    accelerated_250: list[tuple[int, int, int, int, Fraction]] = []
    forbidden: list[frozenset[int]] = []
    prohibitions: list[Prohibition] = []
    kept_apart = 0  # pairs the XXP and 260 records name so far (MAX_KEPT_APART)
    accelerated = 0  # player-rounds the 250 records name so far (MAX_ACCELERATED)
    points = PointSystem()
    birth_dates: dict[int, str] = {}
    ranks: dict[int, int] = {}
    system: str | None = None
    total_rounds: int | None = None
    initial_colour: Colour | None = None

    header_characters = 0  # MAX_HEADER_CHARACTERS

    text = normalized_text(text)
    found = first_control(text)
    if found is not None and (text.startswith("001") or "\n001" in text):
        # (a file without player records is not a TRF file: its callers say so)
        raise TrfError(f"{found.describe()}; TRF records carry no control characters")
    for line_no, raw in enumerate(split_lines(text), 1):
        line = raw.rstrip()
        if not line.strip() or line.startswith("###"):
            continue
        code = line[:3]
        rest = line[4:] if len(line) > 3 else ""
        if code not in _NOT_HEADERS:
            header_characters += len(line)
            _check_headers(len(headers) + 1, header_characters, line_no)
        header_lines.setdefault(code, line_no)
        if code in TEAM_RECORDS:
            raise TrfError(
                f"line {line_no}: record {code} describes teams: team events are not supported"
            )
        if code == "001":
            if "\t" in line:
                column = line.index("\t") + 1
                raise TrfError(
                    f"line {line_no}, column {column}: a tab character; TRF records are "
                    "fixed columns, write spaces"
                )
            parsed = _parse_player(line, line_no)
            player = parsed.player
            if player.start_number in cells:
                raise TrfError(f"line {line_no}: start number {player.start_number} repeated")
            players.append(player)
            cells[player.start_number] = parsed.cells
            lines[player.start_number] = line_no
            if parsed.birth:
                birth_dates[player.start_number] = parsed.birth
            if parsed.rank is not None:
                ranks[player.start_number] = parsed.rank
            if parsed.points is not None:
                file_points[player.start_number] = parsed.points
            if parsed.rating_zero:
                rating_zero.add(player.start_number)
        elif code == "142":
            rounds_142 = _int_field(rest.strip(), line_no, "142 number of rounds")
            headers.append((code, rest))
        elif code == "152":
            letter = rest.strip()[:1].upper()
            if letter in ("W", "B") and initial_colour is None:
                initial_colour = Colour.WHITE if letter == "W" else Colour.BLACK
            headers.append((code, rest))
        elif code == "240":
            announced_240.extend(_parse_240(line, line_no))
            headers.append((code, rest))
        elif code == "XXR":
            total_rounds = _int_field(rest.strip(), line_no, "XXR rounds")
            headers.append((code, rest))
        elif code == "XXC":
            tokens = rest.lower().split()
            if "black1" in tokens:
                initial_colour = Colour.BLACK
            elif "white1" in tokens:
                initial_colour = Colour.WHITE
            headers.append((code, rest))
        elif code == "162":
            points = _parse_162(line, line_no)
            headers.append((code, rest))
        elif code == "250":
            record = _parse_250(line, line_no)
            accelerated = _count_accelerated(accelerated, record, line_no)
            accelerated_250.append(record)
            headers.append((code, rest))
        elif code == "260":
            prohibition = _parse_260(line, line_no)
            kept_apart = _count_kept_apart(kept_apart, prohibition.players, line_no)
            prohibitions.append(prohibition)
            headers.append((code, rest))
        elif code == "XXA":
            number, values = _parse_acceleration(line, line_no)
            accelerations[number] = values
        elif code == "XXP":
            ids = [_int_field(tok, line_no, "XXP start number") for tok in rest.split()]
            kept_apart = _count_kept_apart(kept_apart, ids, line_no)
            ids = list(dict.fromkeys(ids))  # a number listed twice is one player
            forbidden.extend(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
        else:
            if code == "192" or (code == "092" and system is None):
                system = rest.strip() or system
            headers.append((code, rest))

    players.sort(key=lambda p: p.start_number)
    _check_span(cells, lines)
    rounds, next_byes = _build_rounds(cells, lines, points)
    rounds, next_byes = _bye_column_counted(rounds, next_byes, file_points, points)
    listed = {b.player for b in next_byes}
    extra = [b for b in announced_240 if b.round == len(rounds) + 1 and b.player not in listed]
    if extra:
        next_byes = tuple(sorted((*next_byes, *extra), key=lambda b: b.player))
    tournament = Tournament(
        players=tuple(players),
        rounds=rounds,
        total_rounds=total_rounds if total_rounds is not None else rounds_142,
        points=points,
        name=next((r.strip() for c, r in headers if c == "012"), ""),
        initial_colour=initial_colour,
    )
    return TrfDocument(
        tournament=tournament,
        next_round_byes=next_byes,
        accelerations=accelerations,
        accelerations_250=tuple(accelerated_250),
        forbidden_pairs=tuple(forbidden),
        prohibitions=tuple(prohibitions),
        system=system,
        headers=tuple(headers),
        birth_dates=birth_dates,
        ranks=ranks,
        file_points=file_points,
        rating_zero=frozenset(rating_zero),
        lines=lines,
        header_lines=header_lines,
    )


_NOT_HEADERS = frozenset({"001", "XXA", "XXP"})
"""Records read into the players and the pairing data rather than kept verbatim."""


def _check_headers(records: int, characters: int, line_no: int) -> None:
    """Refuse a file whose header records pass MAX_HEADER_RECORDS or
    MAX_HEADER_CHARACTERS, naming the record that does."""
    if records > MAX_HEADER_RECORDS:
        raise TrfError(
            f"line {line_no}: more than {MAX_HEADER_RECORDS:,} header records (records "
            "other than 001, XXA and XXP); a TRF file carries a few dozen"
        )
    if characters > MAX_HEADER_CHARACTERS:
        raise TrfError(
            f"line {line_no}: the header records so far hold more than "
            f"{MAX_HEADER_CHARACTERS:,} characters"
        )


def _bye_column_counted(
    rounds: tuple[Round, ...],
    byes: tuple[Bye, ...],
    file_points: Mapping[int, Fraction],
    points: PointSystem,
) -> tuple[tuple[Round, ...], tuple[Bye, ...]]:
    """A last column holding only byes is the next round's announced byes, unless the
    file's points column counts them (a finished file whose last round was all byes for
    the players listed): then it is a played round."""
    if not byes or not file_points:
        return rounds, byes
    without: dict[int, Fraction] = {}
    for rnd in rounds:
        _add_scores(without, rnd, points)
    played = Round(len(rounds) + 1, (), byes)
    with_column = dict(without)
    _add_scores(with_column, played, points)

    def distance(scores: Mapping[int, Fraction]) -> Fraction:
        return sum(
            (abs(given - scores.get(n, Fraction(0))) for n, given in file_points.items()),
            Fraction(0),
        )

    if distance(with_column) < distance(without):
        return (*rounds, played), ()
    return rounds, byes


def points_mismatches(doc: TrfDocument) -> dict[int, tuple[Fraction, Fraction]]:
    """Players whose points column (cols 81-84) differs from their results:
    start number -> (the file's points, the points the results give)."""
    scores = doc.tournament.scores()
    return {
        number: (given, scores[number])
        for number, given in sorted(doc.file_points.items())
        if number in scores and given != scores[number]
    }


def _parse_240(line: str, line_no: int) -> list[Bye]:
    """TRF-26 record 240: byes announced for a round (type at col 5, round at cols
    7-9, start numbers from col 11 every 5 columns)."""
    letter = line[4:5].upper() or "Z"
    if letter not in _BYE_LETTERS:
        raise TrfError(f"line {line_no}, column 5: record 240 bye type {letter!r} is not U F H Z")
    round_no = _int_field(line[6:9].strip(), line_no, "record 240 round (cols 7-9)")
    numbers = [
        _int_field(line[i : i + 4].strip(), line_no, f"record 240 start number (col {i + 1})")
        for i in range(10, len(line), 5)
        if line[i : i + 4].strip()
    ]
    return [Bye(round_no, n, ByeKind.from_trf(letter)) for n in numbers]


_SCORING_LETTERS = {
    "W": "win",
    "D": "draw",
    "L": "loss",
    "A": "zero_bye",
    "P": "pairing_bye",
    "X": "half_bye",
}
"""TRF-26 record 162 letters and the point each sets. Reading: W/D/L are the games won,
drawn and lost; A the absence (zero-point bye, default 0); P the pairing-allocated bye
(default: a win); X the bye worth a draw by default, which Arbiter's model calls the
requested half-point bye."""


def _parse_162(line: str, line_no: int) -> PointSystem:
    """TRF-26 record 162, the scoring system: a letter at column 6 and its points in
    columns 7-10, repeated every 9 columns; letters not given keep their defaults."""
    values: dict[str, Fraction] = {}
    for position in range(5, len(line), 9):
        letter = line[position].upper()
        if letter == " ":
            continue
        if letter not in _SCORING_LETTERS:
            raise TrfError(
                f"line {line_no}, column {position + 1}: record 162 letter {letter!r} is not "
                "one of W D L A P X"
            )
        text = line[position + 1 : position + 5].strip()
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise TrfError(
                f"line {line_no}, columns {position + 2}-{position + 5}: record 162 points "
                f"{text!r} for {letter} are not a number"
            ) from None
        if not 0 <= value <= 100:
            raise TrfError(
                f"line {line_no}, columns {position + 2}-{position + 5}: record 162 points "
                f"{text} for {letter} are outside 0..100"
            )
        values[_SCORING_LETTERS[letter]] = value
    return PointSystem(**values)


def _parse_250(line: str, line_no: int) -> tuple[int, int, int, int, Fraction]:
    """TRF-26 record 250, an acceleration: game points (cols 10-13) added for rounds
    first..last (cols 15-17, 19-21; last blank = first) to start numbers first..last
    (cols 23-26, 28-31; last blank = first). Match points (cols 5-8) are for teams."""
    text = line[9:13].strip()
    try:
        value = Fraction(text) if text else Fraction(0)
    except (ValueError, ZeroDivisionError):
        raise TrfError(
            f"line {line_no}, columns 10-13: record 250 game points {text!r} are not a number"
        ) from None
    first_round = _int_field(line[14:17].strip(), line_no, "record 250 first round (cols 15-17)")
    last_text = line[18:21].strip()
    last_round = _int_field(last_text, line_no, "record 250 last round") if last_text else 0
    first = _int_field(line[22:26].strip(), line_no, "record 250 first player (cols 23-26)")
    last_text = line[27:31].strip()
    last = _int_field(last_text, line_no, "record 250 last player") if last_text else 0
    last_round = last_round or first_round
    last = last or first
    if not 1 <= first_round <= last_round or not 1 <= first <= last:
        raise TrfError(f"line {line_no}: record 250 ranges are empty or reversed")
    return first_round, last_round, first, last, value


def _with_250(
    accelerations: Mapping[int, tuple[Fraction, ...]],
    records: Sequence[tuple[int, int, int, int, Fraction]],
) -> dict[int, tuple[Fraction, ...]]:
    """XXA's virtual points per player and round, plus those of every record 250."""
    merged = {number: list(values) for number, values in accelerations.items()}
    for first_round, last_round, first, last, value in records:
        for number in range(first, last + 1):
            values = merged.setdefault(number, [])
            values.extend([Fraction(0)] * (last_round - len(values)))
            for index in range(first_round - 1, last_round):
                values[index] += value
    return {number: tuple(values) for number, values in merged.items()}


def _check_span(cells: Mapping[int, list[str]], lines: Mapping[int, int]) -> None:
    """Refuse a file whose players times round columns exceed MAX_PLAYER_ROUNDS, naming
    the longest 001 record."""
    if not cells:
        return
    longest = max(cells, key=lambda number: len(cells[number]))
    span = len(cells) * len(cells[longest])
    if span > MAX_PLAYER_ROUNDS:
        raise TrfError(
            f"line {lines[longest]}: {len(cells):,} players over {len(cells[longest]):,} "
            f"round columns span {span:,} player-rounds; at most {MAX_PLAYER_ROUNDS:,} are read"
        )


def _count_accelerated(
    so_far: int, record: tuple[int, int, int, int, Fraction], line_no: int
) -> int:
    """`so_far` plus the player-rounds a 250 record accelerates, refused past
    MAX_ACCELERATED before any is built."""
    first_round, last_round, first, last, _ = record
    total = so_far + (last - first + 1) * (last_round - first_round + 1)
    if total > MAX_ACCELERATED:
        raise TrfError(
            f"line {line_no}: the 250 records so far accelerate {total:,} player-rounds; "
            f"at most {MAX_ACCELERATED:,} are read"
        )
    return total


def _count_kept_apart(so_far: int, players: Sequence[int], line_no: int) -> int:
    """`so_far` plus the pairs a record keeps apart (every two of its distinct players),
    refused past MAX_KEPT_APART before any pair is made."""
    distinct = len(set(players))
    total = so_far + distinct * (distinct - 1) // 2
    if total > MAX_KEPT_APART:
        raise TrfError(
            f"line {line_no}: the XXP and 260 records so far keep {total:,} pairs of players "
            f"apart; at most {MAX_KEPT_APART:,} are read"
        )
    return total


def _parse_260(line: str, line_no: int) -> Prohibition:
    """TRF-26 record 260, prohibited pairings: rounds first..last (cols 5-7, 9-11; last
    blank = first), then start numbers from column 13 every 5 columns."""
    first = _int_field(line[4:7].strip(), line_no, "record 260 first round (cols 5-7)")
    last_text = line[8:11].strip()
    last = _int_field(last_text, line_no, "record 260 last round (cols 9-11)") if last_text else 0
    players = tuple(
        dict.fromkeys(  # a number listed twice is one player
            _int_field(line[i : i + 4].strip(), line_no, f"record 260 start number (col {i + 1})")
            for i in range(12, len(line), 5)
            if line[i : i + 4].strip()
        )
    )
    if len(players) < 2:
        raise TrfError(f"line {line_no}: record 260 names fewer than two players")
    return Prohibition(first, last or first, players)


def _int_field(text: str, line_no: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TrfError(f"line {line_no}: {what} is not a number: {text!r}") from None


@dataclass(frozen=True, slots=True)
class _PlayerLine:
    player: Player
    cells: list[str]
    birth: str
    rank: int | None
    points: Fraction | None
    rating_zero: bool


def _parse_player(line: str, line_no: int) -> _PlayerLine:
    padded = line.ljust(_CELL_START)
    number = _int_field(padded[4:8].strip(), line_no, "start number (cols 5-8)")
    rating_text = padded[48:52].strip()
    rating = _int_field(rating_text, line_no, "rating (cols 49-52)") if rating_text else 0
    rank_text = padded[85:89].strip()
    rank = _int_field(rank_text, line_no, "rank (cols 86-89)") if rank_text else None
    points_text = padded[80:84].strip()
    points: Fraction | None = None
    if points_text:
        try:
            points = _points(points_text.replace(",", "."))
        except (ValueError, ZeroDivisionError):  # `3/0` reads as a fraction
            raise TrfError(
                f"line {line_no}, columns 81-84: points are not a number: {points_text!r}"
            ) from None
    birth = padded[69:79].rstrip()  # kept as written: `    .  .` is a date's layout
    year = birth.strip()[:4]
    birth_year = int(year) if len(year) == 4 and year.isdecimal() else None
    player = Player(
        start_number=number,
        name=padded[14:47].strip(),
        rating=rating,
        fide_id=padded[57:68].strip() or None,
        federation=padded[53:56].strip() or None,
        sex=padded[9].strip() or None,
        birth_year=birth_year,
        title=padded[10:13].strip() or None,
    )
    player_cells: list[str] = []
    position = _CELL_START
    while position < len(line):
        cell = line[position : position + 8]
        if cell[:4].strip() and len(cell) < 6:
            round_no = len(player_cells) + 1
            raise TrfError(
                f"line {line_no}, columns {position + 1}-{position + 8}: round {round_no} "
                "cell is cut short (opponent without colour and result)"
            )
        player_cells.append(cell.ljust(8))
        position += _CELL_WIDTH
    return _PlayerLine(player, player_cells, birth, rank, points, bool(rating_text) and not rating)


@functools.lru_cache(maxsize=4096)
def _points(text: str) -> Fraction:
    """A 4-column points field (blank: 0), one shared value per text: a file of XXA
    records or of player lines holds a few distinct values many times (reading one
    from its text takes microseconds), and a million fractions of its own would be a
    million objects for the collector to walk."""
    return Fraction(text) if text else Fraction(0)


def _parse_acceleration(line: str, line_no: int) -> tuple[int, tuple[Fraction, ...]]:
    """An XXA record (the JaVaFo/bbpPairings extension): a start number, then the points
    added in each round, one 4-column field every 5 columns from column 10."""
    number = _int_field(line[4:8].strip(), line_no, "XXA start number")
    values = []
    position = 9
    while position < len(line):
        chunk = line[position : position + 4].strip()
        try:
            values.append(_points(chunk))
        except (ValueError, ZeroDivisionError):
            raise TrfError(
                f"line {line_no}, columns {position + 1}-{position + 4}: XXA points for "
                f"round {len(values) + 1} are not a number: {chunk!r}"
            ) from None
        position += 5
    return number, tuple(values)


@dataclass(slots=True)
class _Cell:
    opponent: int
    colour: str
    result: str


def _where(lines: Mapping[int, int], number: int, round_no: int, part: str = "cell") -> str:
    """`line L, columns A-B` of a player's round cell (TRF-16 001 cols 92-99 + 10(r-1))."""
    first = _CELL_START + 1 + (round_no - 1) * _CELL_WIDTH
    span = {"cell": (first, first + 7), "colour": (first + 5, first + 5)}.get(
        part, (first + 7, first + 7)
    )
    columns = f"columns {span[0]}-{span[1]}" if span[0] != span[1] else f"column {span[0]}"
    return f"line {lines.get(number, 0)}, {columns} (player {number}, round {round_no})"


def _split_cell(
    cell: str, number: int, round_no: int, lines: Mapping[int, int] | None = None
) -> _Cell | None:
    if not cell.strip():
        return None
    opponent_text = cell[0:4].strip()
    try:
        opponent = int(opponent_text) if opponent_text else 0
    except ValueError:
        raise TrfError(
            f"{_where(lines or {}, number, round_no)}: opponent is not a number: {opponent_text!r}"
        ) from None
    colour = cell[5:6].strip().lower()
    if colour not in _COLOURS:
        raise TrfError(
            f"{_where(lines or {}, number, round_no, 'colour')}: colour {colour!r} is not w, b or -"
        )
    return _Cell(opponent, colour, cell[7:8].strip().upper())


_COLOURS = ("w", "b", "-", "")
"""A round cell's colour (TRF-16 001, column 97 + 10(r-1)): blank is read as `-`."""


_BYE_OF_RESULT = {"+": "U", "1": "U", "W": "U", "=": "H", "D": "H", "-": "Z", "0": "Z", "L": "Z"}
"""A cell with no opponent: what its result letter means (legacy files, Lichess)."""


def _bye_letter(cell: _Cell) -> str:
    letter = cell.result or "Z"
    return letter if letter in _BYE_LETTERS else _BYE_OF_RESULT.get(letter, "")


def _build_rounds(
    cells: Mapping[int, list[str]], lines: Mapping[int, int], points: PointSystem
) -> tuple[tuple[Round, ...], tuple[Bye, ...]]:
    round_count = max((len(c) for c in cells.values()), default=0)
    built: list[tuple[list[Game], list[Bye], bool]] = []
    for index in range(round_count):
        round_no = index + 1
        games: list[Game] = []
        byes: list[Bye] = []
        explicit = False
        read_back: set[int] = set()  # players whose game was read from the opponent's cell
        for number, player_cells in cells.items():
            if number in read_back:
                continue
            cell = (
                _split_cell(player_cells[index], number, round_no, lines)
                if index < len(player_cells)
                else None
            )
            if cell is None:
                continue
            if cell.opponent == 0:
                letter = _bye_letter(cell)
                if not letter:
                    raise TrfError(
                        f"{_where(lines, number, round_no, 'result')}: result "
                        f"{cell.result!r} is not a bye code"
                    )
                explicit = explicit or bool(cell.result)
                byes.append(Bye(round_no, number, ByeKind.from_trf(letter)))
                continue
            games.append(_game_from_cells(cells, number, cell, index, round_no, lines))
            read_back.add(cell.opponent)
        built.append((games, _settle_wins(byes), explicit))
    # Trailing columns with no game and no pairing-allocated bye are not rounds: the
    # first of them holds the byes announced for the next round; blank ones are dropped.
    paired = len(built)
    while (
        paired
        and not built[paired - 1][0]
        and not any(b.kind is ByeKind.PAIRING_ALLOCATED for b in built[paired - 1][1])
    ):
        paired -= 1
    pending: tuple[Bye, ...] = ()
    if paired < len(built):
        announced = [b for b in built[paired][1] if b.kind is not ByeKind.ZERO_POINT]
        announced += [
            b for b in built[paired][1] if b.kind is ByeKind.ZERO_POINT and built[paired][2]
        ]
        pending = tuple(
            sorted((replace(b, round=paired + 1) for b in announced), key=lambda b: b.player)
        )
    rounds: list[Round] = []
    scale = _ScaledPoints(points)
    scores: dict[int, int] = dict.fromkeys(cells, 0)
    for index in range(paired):
        round_games, byes, _ = built[index]
        ordered = _board_order(round_games, scores)
        rounds.append(Round(index + 1, tuple(ordered), tuple(sorted(byes, key=lambda b: b.player))))
        scale.add(scores, rounds[-1])
    return tuple(rounds), pending


class _ScaledPoints:
    """A point system's values as integers, in units of the lcm of their denominators
    (halves for chess), so that the board order of each round, which compares the
    scores before it, sums and compares integers rather than fractions: the same order,
    as scaling by a positive unit keeps every sum and comparison."""

    def __init__(self, points: PointSystem) -> None:
        values = {
            (result, colour): points.for_outcome(result.outcome(colour))
            for result in GameResult
            for colour in (Colour.WHITE, Colour.BLACK)
        }
        byes = {kind: points.for_bye(kind) for kind in ByeKind}
        unit = lcm(*(v.denominator for v in (*values.values(), *byes.values())))
        self._games = {key: int(value * unit) for key, value in values.items()}
        self._byes = {kind: int(value * unit) for kind, value in byes.items()}

    def add(self, scores: dict[int, int], rnd: Round) -> None:
        """Add a round's points to `scores` (as `_add_scores` does, scaled)."""
        games = self._games
        for game in rnd.games:
            result = game.result
            if result is None:
                continue
            scores[game.white] = scores.get(game.white, 0) + games[result, Colour.WHITE]
            scores[game.black] = scores.get(game.black, 0) + games[result, Colour.BLACK]
        for bye in rnd.byes:
            scores[bye.player] = scores.get(bye.player, 0) + self._byes[bye.kind]


def _settle_wins(byes: list[Bye]) -> list[Bye]:
    """More than one bye worth a win in a round: only one can be the pairing-allocated
    bye (C.04.1 c), so read them all as requested full-point byes."""
    allocated = [b for b in byes if b.kind is ByeKind.PAIRING_ALLOCATED]
    if len(allocated) <= 1:
        return byes
    return [
        replace(b, kind=ByeKind.FULL_POINT) if b.kind is ByeKind.PAIRING_ALLOCATED else b
        for b in byes
    ]


def _add_scores(scores: dict[int, Fraction], rnd: Round, points: PointSystem) -> None:
    """Add a round's points (the file's scoring system, record 162) to `scores`."""
    for game in rnd.games:
        if game.result is None:
            continue
        for number, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
            earned = points.for_outcome(game.result.outcome(colour))
            scores[number] = scores.get(number, Fraction(0)) + earned
    for bye in rnd.byes:
        scores[bye.player] = scores.get(bye.player, Fraction(0)) + points.for_bye(bye.kind)


def _board_order(games: list[Game], scores: Mapping[int, int]) -> list[Game]:
    """TRF-16 carries no board numbers: tables follow FIDE C.04.2 D.9 (the higher
    score of the pair, then the sum of scores, then the lower start number first).
    Scores are scaled integers (`_ScaledPoints`)."""

    def key(game: Game) -> tuple[int, int, int]:
        a, b = scores.get(game.white, 0), scores.get(game.black, 0)
        return (-max(a, b), -(a + b), min(game.white, game.black))

    return sorted(games, key=key)


def _game_from_cells(
    cells: Mapping[int, list[str]],
    number: int,
    cell: _Cell,
    index: int,
    round_no: int,
    lines: Mapping[int, int],
) -> Game:
    other_cells = cells.get(cell.opponent)
    if other_cells is None:
        raise TrfError(f"{_where(lines, number, round_no)}: opponent {cell.opponent} unknown")
    other = (
        _split_cell(other_cells[index], cell.opponent, round_no, lines)
        if index < len(other_cells)
        else None
    )
    if other is None or other.opponent != number:
        raise TrfError(
            f"{_where(lines, number, round_no)}: opponent {cell.opponent} does not list "
            f"{number} back ({_where(lines, cell.opponent, round_no)})"
        )
    if cell.colour in ("w", "b") and cell.colour == other.colour:
        side = "White" if cell.colour == "w" else "Black"
        raise TrfError(
            f"{_where(lines, number, round_no, 'colour')} and "
            f"{_where(lines, cell.opponent, round_no, 'colour')}: both players have {side}"
        )
    # Lichess writes a game in progress as `62 b Z`: no result yet.
    cell.result, other.result = (r if r != "Z" else "" for r in (cell.result, other.result))
    forfeit = {cell.result, other.result} <= {"+", "-"} and bool(cell.result or other.result)
    if cell.colour == "w" or other.colour == "b":
        white, black, white_code, black_code = number, cell.opponent, cell.result, other.result
    elif cell.colour == "b" or other.colour == "w":
        white, black, white_code, black_code = cell.opponent, number, other.result, cell.result
    elif forfeit:
        # Unplayed: colours count for nothing (C.04.1 f); the lower number takes White.
        white, black = sorted((number, cell.opponent))
        white_code, black_code = (
            (cell.result, other.result) if white == number else (other.result, cell.result)
        )
    else:
        raise TrfError(f"{_where(lines, number, round_no, 'colour')}: game without colours")
    try:
        result = _PAIRS[(white_code, black_code)]
    except KeyError:
        white_at = _where(lines, white, round_no, "result")
        black_at = _where(lines, black, round_no, "result")
        raise TrfError(
            f"{white_at} and {black_at}: results {white_code or 'blank'} and "
            f"{black_code or 'blank'} contradict each other"
        ) from None
    return Game(round_no, white, black, result)


_PAIRS: dict[tuple[str, str], GameResult | None] = {
    ("", ""): None,
    ("1", "0"): GameResult.WHITE_WINS,
    ("W", "L"): GameResult.WHITE_WINS,
    ("=", "="): GameResult.DRAW,
    ("D", "D"): GameResult.DRAW,
    ("0", "1"): GameResult.BLACK_WINS,
    ("L", "W"): GameResult.BLACK_WINS,
    ("+", "-"): GameResult.WHITE_WINS_FORFEIT,
    ("-", "+"): GameResult.BLACK_WINS_FORFEIT,
    ("-", "-"): GameResult.DOUBLE_FORFEIT,
    ("+", ""): GameResult.WHITE_WINS_FORFEIT,
    ("", "+"): GameResult.BLACK_WINS_FORFEIT,
    ("-", ""): GameResult.BLACK_WINS_FORFEIT,
    ("", "-"): GameResult.WHITE_WINS_FORFEIT,
}
"""The result pairs a game can carry (TRF-16 result codes; W/D/L = under one move).
One side blank: the other side's forfeit letter decides (legacy files write one)."""


_RESULT_CODES: dict[GameResult, tuple[str, str]] = {
    GameResult.WHITE_WINS: ("1", "0"),
    GameResult.DRAW: ("=", "="),
    GameResult.BLACK_WINS: ("0", "1"),
    GameResult.WHITE_WINS_FORFEIT: ("+", "-"),
    GameResult.BLACK_WINS_FORFEIT: ("-", "+"),
    GameResult.DOUBLE_FORFEIT: ("-", "-"),
}


def _format_points(points: Fraction) -> str:
    whole, rest = divmod(points, 1)
    return (
        f"{int(whole)}.{'5' if rest else '0'}"
        if rest in (0, Fraction(1, 2))
        else (f"{float(points):.1f}")
    )


def write_trf(doc: TrfDocument, *, ranks: Mapping[int, int] | None = None) -> str:
    """Write a TRF-16 file: header records, then players, then XX extension records.

    Points (cols 81-84) are recomputed from the results; ranks come from `ranks`, else
    from the document.
    """
    tournament = doc.tournament
    scores = tournament.scores()
    rank_of = dict(doc.ranks) if ranks is None else dict(ranks)
    cells = _cells_by_player(tournament, doc.next_round_byes)
    lines: list[str] = []
    trailing_codes = ("XXR", "XXC")
    for code, rest in doc.headers:
        if code not in trailing_codes:
            lines.append(f"{code} {rest}".rstrip() if rest else code)
    for player in tournament.players:
        lines.append(_player_line(player, scores[player.start_number], rank_of, doc, cells))
    for code, rest in doc.headers:
        if code in trailing_codes:
            lines.append(f"{code} {rest}".rstrip())
    has_xxr = any(code == "XXR" for code, _ in doc.headers)
    if not has_xxr and tournament.total_rounds is not None:
        lines.append(f"XXR {tournament.total_rounds}")
    for number, values in sorted(doc.accelerations.items()):
        lines.append(f"XXA {number:4d} " + " ".join(f"{float(v):4.1f}" for v in values))
    for pair in doc.forbidden_pairs:
        lines.append("XXP " + " ".join(str(n) for n in sorted(pair)))
    return "\n".join(lines) + "\n"


def _player_line(
    player: Player,
    points: Fraction,
    rank_of: Mapping[int, int],
    doc: TrfDocument,
    cells: Mapping[int, list[str]],
) -> str:
    rank = rank_of.get(player.start_number)
    head = (
        f"001 {player.start_number:4d} {(player.sex or ' '):1}{(player.title or ''):>3} "
        f"{player.name[:33]:<33} {_rating(player, doc):>4} {(player.federation or ''):<3} "
        f"{(player.fide_id or ''):>11} {doc.birth_dates.get(player.start_number, ''):<10} "
        f"{_format_points(points):>4} {'' if rank is None else rank:>4}"
    )
    body = "".join(f"  {cell}" for cell in cells.get(player.start_number, []))
    return (head + body).rstrip()


def _rating(player: Player, doc: TrfDocument) -> str:
    if player.rating or player.start_number in doc.rating_zero:
        return str(player.rating)
    return ""


def _cells_by_player(tournament: Tournament, pending: Iterable[Bye]) -> dict[int, list[str]]:
    count = len(tournament.rounds)
    pending = tuple(pending)
    width = count + (1 if pending else 0)
    cells = {p.start_number: ["        "] * width for p in tournament.players}
    for index, rnd in enumerate(tournament.rounds):
        for game in rnd.games:
            white_code, black_code = (
                _RESULT_CODES[game.result] if game.result is not None else (" ", " ")
            )
            cells[game.white][index] = f"{game.black:4d} w {white_code}"
            cells[game.black][index] = f"{game.white:4d} b {black_code}"
        for bye in rnd.byes:
            cells[bye.player][index] = f"0000 - {bye.kind.trf_code}"
    for bye in pending:
        cells[bye.player][count] = f"0000 - {bye.kind.trf_code}"
    for row in cells.values():
        while row and not row[-1].strip():
            row.pop()
    return cells
