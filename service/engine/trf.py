"""FIDE TRF-16 reading and writing, with the JaVaFo extensions XXR, XXC, XXA and XXP.

Layout (FIDE TRF-16; reference/chess-rules.md 5.1): a `001` record per player, columns
1-based: 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating, 54-56
federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank, then one
10-column round cell from column 92: `OOOO C R` (opponent, colour, result).

Readings taken:
- A round column that holds games or a pairing-allocated bye is a *paired* round. A
  trailing column that holds only H/F/Z entries is a set of byes announced before the
  next round is paired (oracle/dutch README); it is returned as `next_round_byes`.
- A cell with an opponent and result `+`/`-` is a forfeited pairing; `-` on both sides
  is a double forfeit. `W`/`D`/`L` (games of under one move) count as 1-0/½/0-1 played.
- Round trip: `write_trf(parse_trf(text))` reproduces a well-formed file's records
  (header records are kept verbatim, in their order).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction

from service.engine.errors import EngineError
from service.engine.model import (
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

__all__ = ["TrfDocument", "TrfError", "parse_trf", "rounds_prefix", "write_trf"]

_CELL_START = 91  # 0-based index of round 1's cell
_CELL_WIDTH = 10
_BYE_LETTERS = frozenset("UFHZ")


class TrfError(EngineError):
    """A TRF file that cannot be read; the message names the line and the field."""


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
    system: str | None = None
    """Record 092 / 192: the pairing system the file declares."""
    headers: tuple[tuple[str, str], ...] = ()
    """Other records, verbatim (code, rest of line), in file order."""
    birth_dates: Mapping[int, str] = field(default_factory=dict)
    """Birth date text (cols 70-79) per start number, kept for the round trip."""
    ranks: Mapping[int, int] = field(default_factory=dict)
    """Rank column per start number, as the file gave it."""


def rounds_prefix(doc: TrfDocument, rounds: int) -> TrfDocument:
    """The document as it stood before round `rounds + 1` was paired.

    Keeps rounds 1..`rounds`; the announced byes (H/F/Z) of the next round become
    `next_round_byes`, as the oracle README describes the input for pairing it.
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
    """Read a TRF-16 file (LF or CR line ends)."""
    players: list[Player] = []
    cells: dict[int, list[str]] = {}
    headers: list[tuple[str, str]] = []
    accelerations: dict[int, tuple[Fraction, ...]] = {}
    forbidden: list[frozenset[int]] = []
    birth_dates: dict[int, str] = {}
    ranks: dict[int, int] = {}
    system: str | None = None
    total_rounds: int | None = None
    initial_colour: Colour | None = None

    for line_no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        line = raw.rstrip()
        if not line.strip() or line.startswith("###"):
            continue
        code = line[:3]
        rest = line[4:] if len(line) > 3 else ""
        if code == "001":
            player, player_cells, birth, rank = _parse_player(line, line_no)
            if player.start_number in cells:
                raise TrfError(f"line {line_no}: start number {player.start_number} repeated")
            players.append(player)
            cells[player.start_number] = player_cells
            if birth:
                birth_dates[player.start_number] = birth
            if rank is not None:
                ranks[player.start_number] = rank
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
        elif code == "XXA":
            number, values = _parse_acceleration(line, line_no)
            accelerations[number] = values
        elif code == "XXP":
            ids = [_int_field(tok, line_no, "XXP start number") for tok in rest.split()]
            forbidden.extend(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
        else:
            if code in ("092", "192"):
                system = rest.strip() or None
            headers.append((code, rest))

    players.sort(key=lambda p: p.start_number)
    rounds, next_byes = _build_rounds(cells)
    tournament = Tournament(
        players=tuple(players),
        rounds=rounds,
        total_rounds=total_rounds,
        points=PointSystem(),
        name=next((r.strip() for c, r in headers if c == "012"), ""),
        initial_colour=initial_colour,
    )
    return TrfDocument(
        tournament=tournament,
        next_round_byes=next_byes,
        accelerations=accelerations,
        forbidden_pairs=tuple(forbidden),
        system=system,
        headers=tuple(headers),
        birth_dates=birth_dates,
        ranks=ranks,
    )


def _int_field(text: str, line_no: int, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise TrfError(f"line {line_no}: {what} is not a number: {text!r}") from None


def _parse_player(line: str, line_no: int) -> tuple[Player, list[str], str, int | None]:
    padded = line.ljust(_CELL_START)
    number = _int_field(padded[4:8].strip(), line_no, "start number (cols 5-8)")
    rating_text = padded[48:52].strip()
    rating = _int_field(rating_text, line_no, "rating (cols 49-52)") if rating_text else 0
    rank_text = padded[85:89].strip()
    rank = _int_field(rank_text, line_no, "rank (cols 86-89)") if rank_text else None
    birth = padded[69:79].strip()
    birth_year = int(birth[:4]) if birth[:4].isdigit() else None
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
    player_cells = []
    position = _CELL_START
    while position < len(line):
        player_cells.append(line[position : position + 8].ljust(8))
        position += _CELL_WIDTH
    return player, player_cells, birth, rank


def _parse_acceleration(line: str, line_no: int) -> tuple[int, tuple[Fraction, ...]]:
    number = _int_field(line[4:8].strip(), line_no, "XXA start number")
    values = []
    position = 9
    while position < len(line):
        chunk = line[position : position + 4].strip()
        values.append(Fraction(chunk) if chunk else Fraction(0))
        position += 5
    return number, tuple(values)


@dataclass(slots=True)
class _Cell:
    opponent: int
    colour: str
    result: str


def _split_cell(cell: str, number: int, round_no: int) -> _Cell | None:
    if not cell.strip():
        return None
    opponent_text = cell[0:4].strip()
    try:
        opponent = int(opponent_text) if opponent_text else 0
    except ValueError:
        raise TrfError(
            f"player {number}, round {round_no}: opponent is not a number: {opponent_text!r}"
        ) from None
    return _Cell(opponent, cell[5:6].strip().lower(), cell[7:8].strip().upper())


def _build_rounds(cells: Mapping[int, list[str]]) -> tuple[tuple[Round, ...], tuple[Bye, ...]]:
    round_count = max((len(c) for c in cells.values()), default=0)
    rounds: list[Round] = []
    pending: tuple[Bye, ...] = ()
    for index in range(round_count):
        round_no = index + 1
        games: dict[tuple[int, int], Game] = {}
        byes: list[Bye] = []
        for number, player_cells in cells.items():
            cell = (
                _split_cell(player_cells[index], number, round_no)
                if index < len(player_cells)
                else None
            )
            if cell is None:
                continue
            if cell.opponent == 0 or (cell.result in _BYE_LETTERS and cell.opponent == 0):
                letter = cell.result or "Z"
                if letter not in _BYE_LETTERS:
                    raise TrfError(
                        f"player {number}, round {round_no}: result {letter!r} needs an opponent"
                    )
                byes.append(Bye(round_no, number, ByeKind.from_trf(letter)))
                continue
            game = _game_from_cells(cells, number, cell, index, round_no)
            games.setdefault((game.white, game.black), game)
        has_pairing = bool(games) or any(b.kind is ByeKind.PAIRING_ALLOCATED for b in byes)
        if not has_pairing and index == round_count - 1 and byes:
            pending = tuple(sorted(byes, key=lambda b: b.player))
            break
        ordered = sorted(games.values(), key=lambda g: (g.white, g.black))
        rounds.append(Round(round_no, tuple(ordered), tuple(sorted(byes, key=lambda b: b.player))))
    return tuple(rounds), pending


def _game_from_cells(
    cells: Mapping[int, list[str]], number: int, cell: _Cell, index: int, round_no: int
) -> Game:
    other_cells = cells.get(cell.opponent)
    if other_cells is None:
        raise TrfError(f"player {number}, round {round_no}: opponent {cell.opponent} unknown")
    other = (
        _split_cell(other_cells[index], cell.opponent, round_no)
        if index < len(other_cells)
        else None
    )
    if other is None or other.opponent != number:
        raise TrfError(
            f"player {number}, round {round_no}: opponent {cell.opponent} "
            f"does not list {number} back"
        )
    if cell.colour == "w" or other.colour == "b":
        white, black, white_code, black_code = number, cell.opponent, cell.result, other.result
    elif cell.colour == "b" or other.colour == "w":
        white, black, white_code, black_code = cell.opponent, number, other.result, cell.result
    else:
        raise TrfError(f"player {number}, round {round_no}: game without colours")
    return Game(round_no, white, black, _game_result(white_code, black_code, number, round_no))


_PLAYED = {"1": 2, "W": 2, "=": 1, "D": 1, "0": 0, "L": 0}


def _game_result(white: str, black: str, number: int, round_no: int) -> GameResult | None:
    if not white and not black:
        return None
    if white == "+" or (black == "-" and white != "-"):
        return GameResult.WHITE_WINS_FORFEIT
    if black == "+" or (white == "-" and black != "-"):
        return GameResult.BLACK_WINS_FORFEIT if black != "-" else GameResult.DOUBLE_FORFEIT
    if white == "-" and black == "-":
        return GameResult.DOUBLE_FORFEIT
    if white in _PLAYED:
        return (GameResult.BLACK_WINS, GameResult.DRAW, GameResult.WHITE_WINS)[_PLAYED[white]]
    if black in _PLAYED:
        return (GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS)[_PLAYED[black]]
    raise TrfError(f"player {number}, round {round_no}: unknown result code {white!r}")


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
        f"{player.name[:33]:<33} {(player.rating or ''):>4} {(player.federation or ''):<3} "
        f"{(player.fide_id or ''):>11} {doc.birth_dates.get(player.start_number, ''):<10} "
        f"{_format_points(points):>4} {'' if rank is None else rank:>4}"
    )
    body = "".join(f"  {cell}" for cell in cells.get(player.start_number, []))
    return (head + body).rstrip()


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
