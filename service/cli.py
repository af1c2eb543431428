"""`arbiter`: serve the API, migrate the database, print the OpenAPI contract, and run
the engine offline on TRF files (docs/cli.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main"]


def _serve(args: argparse.Namespace) -> int:
    """uvicorn with `--workers` processes; live events cross them by PostgreSQL
    LISTEN/NOTIFY, so more than one worker needs PostgreSQL (docs/live.md#workers-and-replicas)."""
    import uvicorn

    from service.config import get_settings

    settings = get_settings()
    workers = args.workers
    if workers < 1:
        print("arbiter serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if workers > 1 and not settings.database_url.startswith("postgresql"):
        print(
            "arbiter serve: --workers > 1 needs PostgreSQL (ARBITER_DATABASE_URL): the live "
            "feed of each worker follows the others' writes through LISTEN/NOTIFY",
            file=sys.stderr,
        )
        return 2
    uvicorn.run(
        "service.api.app:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=workers,
        log_level=args.log_level,
        server_header=False,
        backlog=args.backlog,
        # asyncio's own loop, even where uvloop is installed (uvloop connected spectators
        # more slowly and delivered later: the fan-out is bound by socket writes, not by
        # the loop; docs/decisions/event-loop.md), on a selector that takes spectators'
        # socket events a few per turn (service.live.loop);
        # ARBITER_SPECTATOR_LOOP=false: asyncio's loop as it ships
        loop="service.live.loop:spectator_loop" if settings.spectator_loop else "asyncio",
        # frames are encoded once and shared by every socket: compressing them per
        # socket would cost CPU and ~100 KiB of zlib state per spectator
        ws_per_message_deflate=False,
    )
    return 0


def _migrate(_args: argparse.Namespace) -> int:
    from service.config import get_settings
    from service.db.migrate import upgrade

    upgrade(get_settings().database_url)
    return 0


def _openapi(_args: argparse.Namespace) -> int:
    from service.api.app import create_app

    json.dump(create_app().openapi(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def _asyncapi(_args: argparse.Namespace) -> int:
    from service.api.asyncapi import asyncapi_document

    json.dump(asyncapi_document(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


_SOURCES = {
    "request": "--system",
    "trf-092": "the file's 092 record",
    "inferred": "inferred from the games; say --system to decide",
}


def _standings(args: argparse.Namespace) -> int:
    from service.engine.scoring.reading import reading_for
    from service.engine.scoring.standings import compute_standings
    from service.engine.teams.trf import is_team_trf
    from service.engine.trf import decode_trf

    with open(args.file, "rb") as file:
        text = decode_trf(file.read())
    if is_team_trf(text):
        return _team_standings(args, text)
    doc = _read_trf(args.file)
    reading = reading_for(doc.tournament, args.system, doc.system)
    order = [c for c in args.tiebreaks.split(",") if c] if args.tiebreaks else None
    order = order or list(reading.default_tiebreaks())
    table = compute_standings(
        doc.tournament, order, edition=args.edition, round_robin=reading.round_robin
    )
    names = {p.start_number: p.name for p in doc.tournament.players}
    if args.format == "json":
        rows = [
            {
                "rank": r.rank,
                "start_number": r.start_number,
                "name": names[r.start_number],
                "points": float(r.points),
                "tiebreaks": {k: None if v is None else float(v) for k, v in r.tiebreaks.items()},
            }
            for r in table.rows
        ]
        body = {
            "tiebreaks": order,
            "edition": table.edition,
            "reading": reading.as_dict(),
            "rows": rows,
        }
        json.dump(body, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    header = f"{'Rk':>4} {'No':>4} {'Name':<28} {'Pts':>5} " + " ".join(f"{c:>7}" for c in order)
    print(header)
    for r in table.rows:
        cells = (r.tiebreaks[c] for c in order)
        values = " ".join("      -" if v is None else f"{float(v):>7.2f}" for v in cells)
        print(
            f"{r.rank:>4} {r.start_number:>4} {names[r.start_number][:28]:<28} "
            f"{float(r.points):>5.1f} {values}"
        )
    system = f"{reading.system}, " if reading.system else ""
    print(f"# C.07 {table.edition}, {reading.name} reading ({system}{_SOURCES[reading.source]})")
    return 0


def _team_standings(args: argparse.Namespace, text: str) -> int:
    """`arbiter standings` of a team file (TRF-26 310 or TRF-16 013 records): one row
    per team, ranked by match points and the team tie-breaks (docs/rules/teams.md)."""
    from service.engine.teams.model import TeamSystem
    from service.engine.teams.ranking import rank_teams
    from service.engine.teams.registry import team_tiebreak_order
    from service.engine.teams.trf import parse_team_trf

    system = None
    if args.system is not None:
        robin = args.system in ("round-robin", "double-round-robin")
        system = TeamSystem.ROUND_ROBIN if robin else TeamSystem.SWISS
    doc = parse_team_trf(text, system=system)
    event = doc.event
    listed = args.tiebreaks or dict(doc.players.headers).get("212", "")
    order = [c for c in listed.replace(" ", ",").split(",") if c]
    order = team_tiebreak_order(order, event.system)
    rows = rank_teams(event, order)
    names = {t.number: t.name for t in event.teams}
    if args.format == "json":
        body = {
            "tiebreaks": order,
            "system": event.system.value,
            "rows": [
                {
                    "rank": r.rank,
                    "team": r.team,
                    "name": names[r.team],
                    "match_points": float(r.match_points),
                    "game_points": float(r.game_points),
                    "tiebreaks": {k: float(v) for k, v in r.values.items()},
                }
                for r in rows
            ],
        }
        json.dump(body, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    codes = list(rows[0].values) if rows else order
    print(
        f"{'Rk':>4} {'No':>4} {'Team':<28} {'MP':>5} {'GP':>5} "
        + " ".join(f"{c:>8}" for c in codes)
    )
    for r in rows:
        values = " ".join(f"{float(r.values[c]):>8.2f}" for c in codes)
        print(
            f"{r.rank:>4} {r.team:>4} {names[r.team][:28]:<28} {float(r.match_points):>5.1f} "
            f"{float(r.game_points):>5.1f} {values}"
        )
    print(f"# team {event.system.value}, C.07 2026 team tie-breaks (docs/rules/teams.md)")
    return 0


def _read_ratings(path: str) -> list[int]:
    """A start list file: one player a line, `rating` or `name,rating` (or `;`, tab)."""
    from pathlib import Path

    ratings = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        field = text.replace(";", ",").replace("\t", ",").rsplit(",", 1)[-1].strip()
        try:
            ratings.append(int(field))
        except ValueError:
            raise ValueError(f"{path}:{number}: no rating in {text!r}") from None
    return ratings


def _flampark(args: argparse.Namespace) -> int:
    from service.engine.systems import flampark_from_options

    kinds = [k.strip() for k in args.kinds.split(",")] if args.kinds else None
    order = [int(n) for n in args.round_order.split(",")] if args.round_order else None
    count = args.players
    if args.ratings:
        count = len(_read_ratings(args.ratings))
    if count is None:
        raise ValueError("give --players N or --ratings FILE")
    options = {
        "kinds": kinds,
        "round_order": order,
        "variant": args.variant,
        "rematch_byes": args.rematch_byes,
    }
    schedule = flampark_from_options(count, args.rounds, options)
    rounds = [
        {
            "round": rnd.number,
            "kind": kind,
            "games": [{"table": g.table, "white": g.white, "black": g.black} for g in rnd.games],
            "byes": [b.player for b in rnd.byes],
        }
        for rnd, kind in zip(schedule.rounds, schedule.kinds, strict=True)
    ]
    if args.format == "json":  # the same fields as POST /v1/compute/flampark/schedule
        json.dump({"rounds": rounds, "warnings": list(schedule.warnings)}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for warning in schedule.warnings:
        print(f"warning: {warning}")
    for rnd in rounds:
        print(f"Round {rnd['round']} ({rnd['kind']})")
        for game in rnd["games"]:
            print(f"  {game['table']:>4}  {game['white']:>5} - {game['black']:<5}")
        if rnd["byes"]:
            print("  sit out: " + " ".join(str(n) for n in rnd["byes"]))
    return 0


def _forbidden(doc: Any, tournament: Any) -> tuple[frozenset[int], ...]:
    """The pairs that must not meet in the round being paired (XXP, TRF-26 260)."""
    return doc.forbidden_for(len(tournament.rounds) + 1) if doc else ()


def _pair_function(args: argparse.Namespace, doc: Any) -> Any:
    """The next-round pairing of `args.system` from the registry (engine/systems.py),
    which imports only that system's engine: no database tables or pydantic, which a
    TRF file never needs and which used to cost most of a small `arbiter pair` call."""
    from service.engine.systems import PairingRequest, by_pairing_name

    spec = by_pairing_name(args.system or "dutch")
    options = {"rules": args.rules, "seed": getattr(args, "seed", None)}

    def pair(tournament: Any, byes: Any) -> Any:
        request = PairingRequest(
            byes=tuple(byes),
            options=options,
            accelerations=doc.pairing_accelerations if doc else None,
            forbidden_pairs=_forbidden(doc, tournament),
            explain=getattr(args, "explain", False),
        )
        return spec.pair_next(tournament, request)

    return pair


def _read_trf(path: str) -> Any:
    """Read a TRF file as the API does: UTF-8 (BOM dropped) else Windows-1252/Latin-1,
    with the compute endpoints' validation (no 001 records, contradictions with line and
    columns)."""
    from service.engine.trf import NO_PLAYERS, TrfError, decode_trf, parse_trf

    with open(path, "rb") as file:  # not pathlib: 5 ms of imports a pairing call skips
        raw = file.read()
    doc = parse_trf(decode_trf(raw))
    if not doc.tournament.players:
        raise TrfError(NO_PLAYERS, field=path)
    return doc


def _team_file(args: argparse.Namespace) -> bool:
    """Whether `args.file` is a team file (310/013 records); a team system named for an
    individual file is refused."""
    from service.cli_teams import TEAM_SYSTEMS
    from service.errors import InvalidInput

    with open(args.file, "rb") as file:  # a byte scan: an individual file imports no team code
        team = any(line[:3] in (b"310", b"013") for line in file.read().splitlines())
    if not team and args.system in TEAM_SYSTEMS:
        raise InvalidInput(
            f"{args.system} pairs a team file (TRF-26 310 records)", field="--system"
        )
    if team and args.system not in (None, *TEAM_SYSTEMS):
        raise InvalidInput(
            f"{args.system} pairs individuals; a team file takes team-swiss or team-round-robin",
            field="--system",
        )
    return team


def _pair(args: argparse.Namespace) -> int:
    if _team_file(args):
        from service.cli_teams import pair_teams

        return pair_teams(args)
    doc = _read_trf(args.file)
    played = len(doc.tournament.rounds)
    if doc.tournament.total_rounds is None and played:
        # The API imports such a file as finished; here the arbiter asked for a round.
        print(
            f"arbiter: the file gives no number of rounds (XXR or 142): pairing round "
            f"{played + 1} as one more round",
            file=sys.stderr,
        )
    pairing = _pair_function(args, doc)(doc.tournament, doc.next_round_byes)
    if args.format == "json":
        body: dict[str, Any] = {
            "round": pairing.round,
            "pairings": [
                {"table": g.table, "white": g.white, "black": g.black} for g in pairing.games
            ],
            "byes": [{"player": b.player, "type": b.kind.value} for b in pairing.byes],
        }
        if args.explain:
            body["notes"] = list(pairing.notes)
        json.dump(body, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    names = {p.start_number: p.name for p in doc.tournament.players}
    print(f"Round {pairing.round}")
    for g in pairing.games:
        white, black = names[g.white][:24], names[g.black][:24]
        print(f"{g.table:>4}  {g.white:>4} {white:<24} - {g.black:>4} {black}")
    for b in pairing.byes:
        print(f"bye   {b.player:>4} {names[b.player][:24]:<24} ({b.kind.value})")
    for note in pairing.notes if args.explain else ():
        print(f"# {note}")
    return 0


def _check(args: argparse.Namespace) -> int:
    from service.engine.trf_check import check_file

    if _team_file(args):
        from service.cli_teams import check_teams

        return check_teams(args)
    args.system = args.system or "dutch"
    doc = _read_trf(args.file)
    reports = check_file(doc.tournament, _pair_function(args, doc))
    for report in reports:
        if report.error is not None:
            print(
                f"round {report.round}: cannot be paired by the {args.system} rules: {report.error}"
            )
            continue
        if report.agrees:
            continue
        print(f"round {report.round}: differs from the {args.system} rules")
        for white, black in report.played:
            print(f"  played    {white:>4} - {black:<4} (not what the rules give)")
        for white, black in report.expected:
            print(f"  expected  {white:>4} - {black:<4}")
        if report.played_bye != report.expected_bye:
            print(f"  bye: played {report.played_bye}, expected {report.expected_bye}")
    agree = sum(1 for r in reports if r.agrees)
    print(f"{agree} of {len(reports)} rounds agree")
    return 0 if agree == len(reports) else 1


def _generate(args: argparse.Namespace) -> int:
    from service.engine.model import Colour
    from service.engine.pairing.checker import generate_tournament
    from service.engine.systems import by_pairing_name
    from service.engine.trf import TrfDocument, write_trf
    from service.errors import InvalidInput

    if args.teams is not None:
        from service.cli_teams import generate_teams

        return generate_teams(args)
    if args.system in ("team-swiss", "team-round-robin"):
        raise InvalidInput("a team event needs --teams N", field="--teams")
    if args.players is None:
        raise InvalidInput("give --players N (or --teams N for a team event)", field="--players")
    args.system = args.system or "dutch"
    if args.players < 2:
        raise InvalidInput(
            f"too few players: a tournament needs at least 2, {args.players} given",
            field="--players",
        )
    if args.rounds < 0:
        raise InvalidInput(f"a negative number of rounds: {args.rounds}", field="--rounds")
    first = Colour.WHITE if args.first_colour == "white" else Colour.BLACK
    pair = _pair_function(args, None)

    def pair_with_colour(tournament: Any, byes: Any) -> Any:
        from dataclasses import replace

        return pair(replace(tournament, initial_colour=first), byes)

    tournament = generate_tournament(
        args.players, args.rounds, seed=args.seed, pair=pair_with_colour
    )
    system = by_pairing_name(args.system).trf_code
    total: tuple[tuple[str, str], ...] = (("XXR", str(args.rounds)),)
    if not args.rounds:  # a start list: the arbiter sets the number of rounds later
        from dataclasses import replace

        tournament = replace(tournament, total_rounds=None)
        total = ()
    headers = (
        ("012", tournament.name),
        ("092", system),
        *total,
        ("XXC", "white1" if first.value == "w" else "black1"),
    )
    text = write_trf(TrfDocument(tournament=tournament, headers=headers, system=system))
    if args.output:
        from pathlib import Path

        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    from service.cli_teams import TEAM_SYSTEMS, team_options
    from service.engine.systems import SYSTEMS, SystemName

    tournament_systems = tuple(SystemName)
    round_by_round = tuple(
        spec.pairing_name
        for spec in SYSTEMS.values()
        if spec.pairing_name and not spec.paired_in_advance
    )
    paired_next = tuple(spec.pairing_name for spec in SYSTEMS.values() if spec.pairing_name)

    parser = argparse.ArgumentParser(prog="arbiter", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP/WebSocket API (uvicorn)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.add_argument(
        "--workers", type=int, default=1, help="worker processes (more than 1: PostgreSQL)"
    )
    serve.add_argument(
        "--backlog", type=int, default=4096, help="pending connections the socket queues"
    )
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)

    openapi = commands.add_parser("openapi", help="print the OpenAPI document")
    openapi.set_defaults(run=_openapi)

    asyncapi = commands.add_parser("asyncapi", help="print the live channel's AsyncAPI document")
    asyncapi.set_defaults(run=_asyncapi)

    standings = commands.add_parser("standings", help="standings of a TRF file")
    standings.add_argument("file")
    standings.add_argument(
        "--tiebreaks", default="", help="e.g. BH-C1,BH,SB (default: the system's list)"
    )
    standings.add_argument(
        "--system",
        choices=tournament_systems,
        default=None,
        help="the tournament system: decides how C.07 counts unplayed rounds "
        "(default: the file's 092 record, else inferred from the games)",
    )
    standings.add_argument("--edition", choices=("2026", "2024"), default="2026")
    standings.add_argument("--format", choices=("text", "json"), default="text")
    standings.set_defaults(run=_standings)

    from service.cli_ratings import ratings_command, ratings_options

    ratings = commands.add_parser("ratings", help="rating changes and norms of a TRF file")
    ratings_options(ratings)
    ratings.set_defaults(run=ratings_command)

    flampark = commands.add_parser("flampark", help="print a whole FLAMPARK schedule")
    flampark.add_argument("--players", type=int, help="number of players")
    flampark.add_argument("--ratings", help="start list file: one rating (or name,rating) a line")
    flampark.add_argument("--rounds", type=int, required=True)
    flampark.add_argument("--kinds", default="", help="e.g. basic,basic,x2,x4,x8")
    flampark.add_argument("--round-order", default="", help="computed rounds in played order")
    flampark.add_argument(
        "--variant", choices=("individual", "team", "group"), default="individual"
    )
    flampark.add_argument("--rematch-byes", action="store_true")
    flampark.add_argument("--format", choices=("text", "json"), default="text")
    flampark.set_defaults(run=_flampark)

    def pairing_options(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--system",
            choices=(*paired_next, *TEAM_SYSTEMS),
            default=None,
            help="default: dutch; for a team file its 192/092 record (team-swiss unless "
            "it declares a round-robin)",
        )
        command.add_argument("--rules", choices=("dutch-2026", "dutch-2017"), default="dutch-2026")
        command.add_argument("--seed", type=int, default=None, help="JCA colour lots")
        team_options(command)

    pair = commands.add_parser("pair", help="pair the next round of a TRF file")
    pair.add_argument("file")
    pairing_options(pair)
    pair.add_argument("--format", choices=("text", "json"), default="text")
    pair.add_argument("--explain", action="store_true", help="say why each bracket was paired so")
    pair.set_defaults(run=_pair)

    check = commands.add_parser("check", help="check every round of a TRF file against the rules")
    check.add_argument("file")
    pairing_options(check)
    check.set_defaults(run=_check)

    generate = commands.add_parser("generate", help="write a random complete tournament as TRF")
    generate.add_argument("--players", type=int, help="individual event: number of players")
    generate.add_argument(
        "--teams", type=int, help="a team Swiss of N teams (C.04.6), written as TRF-26"
    )
    generate.add_argument("--boards", type=int, default=4, help="boards per match (--teams)")
    generate.add_argument(
        "--rounds", type=int, required=True, help="rounds played (0: the start list alone)"
    )
    generate.add_argument("--seed", type=int, required=True)
    generate.add_argument("--first-colour", choices=("white", "black"), default="white")
    generate.add_argument("--output", "-o", help="file to write (default: standard output)")
    generate.add_argument(
        "--system", choices=(*round_by_round, "team-swiss"), default=None, help="default: dutch"
    )
    generate.add_argument("--rules", choices=("dutch-2026", "dutch-2017"), default="dutch-2026")
    team_options(generate)
    generate.set_defaults(run=_generate)
    return parser


_OFFLINE = frozenset(
    {"openapi", "asyncapi", "standings", "ratings", "flampark", "pair", "check", "generate"}
)
"""Commands that read files and print, and hold nothing that needs closing at exit."""


def run() -> None:
    """The `arbiter` executable: `main`, ending the process as soon as an offline
    command's output is flushed.

    Left to itself, the interpreter tears down every module, class and function one by
    one before it exits: about 8 ms, a tenth of a 100-player `arbiter pair`
    (bench/HISTORY.md). `serve` and `migrate` exit the ordinary way, running their
    libraries' exit handlers."""
    raise SystemExit(main(end_at_once=True))


def main(argv: Sequence[str] | None = None, *, end_at_once: bool = False) -> int:
    """Entry point of the `arbiter` command (`end_at_once`: see `run`).

    Bad input (a file that is not TRF, an unknown tie-break, too few players) prints
    `arbiter: <where>: <message>` on standard error, the message the API gives, and
    exits 2. A reader that stops early (`arbiter pair f.trf | head`) is no error:
    the output stops silently."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from service.engine.errors import EngineError
    from service.errors import Problem

    try:
        code: int = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except (Problem, EngineError) as exc:
        where = f"{exc.field}: " if exc.field else ""
        print(f"arbiter: {where}{exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        return 2
    if end_at_once and args.command in _OFFLINE:
        import os

        sys.stderr.flush()
        os._exit(code)
    return code


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush
    does not report the pipe again (the Python signal documentation's recipe)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    run()
