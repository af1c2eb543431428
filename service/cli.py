"""`arbiter`: serve the API, migrate the database, print the OpenAPI contract, and run
the engine offline on TRF files (DESIGN: Command line)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from service.api.app import create_app

    uvicorn.run(create_app(), host=args.host, port=args.port, log_level=args.log_level)
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


def _standings(args: argparse.Namespace) -> int:
    from pathlib import Path

    from service.engine.scoring.standings import DEFAULT_SWISS, compute_standings
    from service.engine.trf import parse_trf

    doc = parse_trf(Path(args.file).read_text(encoding="utf-8", errors="replace"))
    order = [c for c in args.tiebreaks.split(",") if c] if args.tiebreaks else list(DEFAULT_SWISS)
    table = compute_standings(doc.tournament, order)
    names = {p.start_number: p.name for p in doc.tournament.players}
    if args.format == "json":
        rows = [
            {
                "rank": r.rank,
                "start_number": r.start_number,
                "name": names[r.start_number],
                "points": float(r.points),
                "tiebreaks": {k: float(v) for k, v in r.tiebreaks.items()},
            }
            for r in table.rows
        ]
        json.dump({"tiebreaks": order, "rows": rows}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    header = f"{'Rk':>4} {'No':>4} {'Name':<28} {'Pts':>5} " + " ".join(f"{c:>7}" for c in order)
    print(header)
    for r in table.rows:
        values = " ".join(f"{float(r.tiebreaks[c]):>7.2f}" for c in order)
        print(
            f"{r.rank:>4} {r.start_number:>4} {names[r.start_number][:28]:<28} "
            f"{float(r.points):>5.1f} {values}"
        )
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
    from service.api.flampark_views import schedule_document
    from service.api.systems import schedule_for

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
    schedule = schedule_for(count, args.rounds, options)
    document = schedule_document(schedule)
    if args.format == "json":
        body = document.model_dump(mode="json", include={"rounds", "warnings"})
        json.dump(body, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    for warning in document.warnings:
        print(f"warning: {warning}")
    for rnd in document.rounds:
        print(f"Round {rnd.round} ({rnd.kind})")
        for game in rnd.games:
            print(f"  {game.table:>4}  {game.white:>5} - {game.black:<5}")
        if rnd.byes:
            print("  sit out: " + " ".join(str(n) for n in rnd.byes))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(prog="arbiter", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP/WebSocket API (uvicorn)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)

    migrate = commands.add_parser("migrate", help="apply database migrations")
    migrate.set_defaults(run=_migrate)

    openapi = commands.add_parser("openapi", help="print the OpenAPI document")
    openapi.set_defaults(run=_openapi)

    standings = commands.add_parser("standings", help="standings of a TRF file")
    standings.add_argument("file")
    standings.add_argument("--tiebreaks", default="", help="e.g. BH-C1,BH,SB")
    standings.add_argument("--format", choices=("text", "json"), default="text")
    standings.set_defaults(run=_standings)

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `arbiter` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from service.errors import Problem

    try:
        code: int = args.run(args)
    except (ValueError, OSError, Problem) as exc:
        print(f"arbiter: {exc}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    raise SystemExit(main())
