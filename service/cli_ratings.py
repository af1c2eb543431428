"""`arbiter ratings FILE.trf`: what the event did to each player's FIDE rating, with
the norms (docs/cli.md#ratings, docs/rules/ratings.md). The JSON is the document of
`POST /v1/compute/ratings`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from service.api.schemas.ratings import NormOut
    from service.engine.ratings.event import PlayerFacts

__all__ = ["ratings_command", "ratings_options"]


def ratings_options(command: argparse.ArgumentParser) -> None:
    """The command's arguments."""
    command.add_argument("file")
    command.add_argument(
        "--year", type=int, default=None, help="the event's year (default: the 042/052 date)"
    )
    command.add_argument(
        "--k", action="append", default=[], metavar="N=K", help="K of start number N (repeat)"
    )
    command.add_argument(
        "--games-before",
        action="append",
        default=[],
        metavar="N=G",
        help="rated games start number N completed before the event (repeat)",
    )
    command.add_argument(
        "--reached-2400",
        action="append",
        default=[],
        metavar="N=yes|no",
        help="whether a published rating of start number N ever reached 2400 (repeat)",
    )
    command.add_argument(
        "--event-kind",
        choices=(
            "ordinary",
            "national-championship",
            "national-team-championship",
            "zonal",
            "team-championship",
            "world-cup",
        ),
        default=None,
        help="the event's kind for the norm rules (FIDE B.01 1.4.1b, 1.4.3a-c)",
    )
    command.add_argument(
        "--event-format",
        choices=("swiss", "round-robin", "double-round-robin"),
        default=None,
        help="swiss, round-robin or double-round-robin (default: the file's 092/192)",
    )
    command.add_argument(
        "--host-federation",
        default=None,
        metavar="FED",
        help="the federation that registered the event (default: the file's 032)",
    )
    command.add_argument("--format", choices=("text", "json"), default="text")


def _pairs(values: list[str], option: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for value in values:
        number, sep, rest = value.partition("=")
        if not sep or not number.strip().isdecimal() or not rest.strip():
            raise ValueError(f"{option} {value!r}: write START_NUMBER=VALUE")
        out[int(number)] = rest.strip()
    return out


def _int(value: str, option: str) -> int:
    if not value.isdecimal():
        raise ValueError(f"{option}: {value!r} is not a whole number")
    return int(value)


def _facts(args: argparse.Namespace) -> dict[int, PlayerFacts]:
    from service.engine.ratings.event import PlayerFacts

    ks = {n: _int(v, "--k") for n, v in _pairs(args.k, "--k").items()}
    games = {
        n: _int(v, "--games-before") for n, v in _pairs(args.games_before, "--games-before").items()
    }
    reached: dict[int, bool] = {}
    for n, v in _pairs(args.reached_2400, "--reached-2400").items():
        if v.lower() not in ("yes", "no"):
            raise ValueError(f"--reached-2400 {n}={v}: say yes or no")
        reached[n] = v.lower() == "yes"
    return {
        n: PlayerFacts(k=ks.get(n), games_before=games.get(n), reached_2400=reached.get(n))
        for n in {*ks, *games, *reached}
    }


def ratings_command(args: argparse.Namespace) -> int:
    """Print the rows (text or JSON)."""
    from service.api.compute_input import EngineInput, trf_document
    from service.api.compute_ratings import NormQuery, rows_document, trf_norm_settings, trf_year
    from service.engine.trf import decode_trf

    with open(args.file, "rb") as file:
        doc = trf_document(decode_trf(file.read()), field=args.file)
    players = doc.tournament.players
    unknown = sorted(set(_facts(args)) - {p.start_number for p in players})
    if unknown:
        raise ValueError(f"no player with start number {unknown[0]}")
    data = EngineInput(doc.tournament, {p.start_number: p.start_number for p in players})
    host = args.host_federation
    if host is not None and not (len(host) == 3 and host.isalpha()):
        raise ValueError(f"--host-federation {host!r}: a three-letter federation code")
    query = NormQuery(args.event_kind, args.event_format, host.upper() if host else None)
    norms = trf_norm_settings(doc, query)
    document = rows_document(data, _facts(args), args.year or trf_year(doc), norms)
    if args.format == "json":
        json.dump(document.model_dump(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    names = {p.start_number: p.name for p in players}
    print(f"{'No':>4} {'Name':<28} {'Rtg':>4} {'K':>3} {'Gms':>3} {'Pts':>5} {'We':>6} "
          f"{'Change':>7} {'TPR':>5}  Note")  # fmt: skip
    for row in document.players:
        number = int(row.id)
        k = "-" if row.k is None else str(row.k)
        expected = "-" if row.expected is None else f"{row.expected:.2f}"
        change = "-" if row.change is None else f"{row.change:+.2f}"
        tpr = "-" if row.performance is None else str(row.performance)
        note = ""
        if row.missing:
            note = "missing: " + ", ".join(row.missing)
        elif row.initial is not None:
            initial = row.initial
            note = f"initial {initial.rating}" if initial.rating else initial.status
            if initial.status == "below-floor":
                note += f" ({initial.computed})"
        made = [n.title + _excluded_note(n) for n in row.norms if n.met]
        if made:
            note = (note + "; " if note else "") + "norm: " + ", ".join(made)
        ahead = [
            _forecast_note(n)
            for n in row.norms
            if n.forecast and (n.forecast.needs or n.forecast.status == "secured")
        ]
        if ahead:
            note = (note + "; " if note else "") + "; ".join(ahead)
        print(
            f"{number:>4} {names[number][:28]:<28} {row.rating or 0:>4} {k:>3} {row.games:>3} "
            f"{row.score:>5.1f} {expected:>6} {change:>7} {tpr:>5}  {note}"
        )
    year = document.year if document.year is not None else "unknown"
    if any(n.forecast for row in document.players for n in row.norms):
        round_ = next(n.forecast.round for r in document.players for n in r.norms if n.forecast)
        print(f"# round {round_} left: the least result that gives each norm, and against whom")
    print(f"# FIDE B.02 (2024, 400-point rule as amended 2025), B.01 norms; year {year}")
    return 0


def _excluded_note(norm: NormOut) -> str:
    """` (1.4.1f: without rounds 10, 11)` for a norm made leaving out games won."""
    if not norm.excluded:
        return ""
    return " (1.4.1f: without rounds " + ", ".join(str(g.round) for g in norm.excluded) + ")"


def _forecast_note(norm: NormOut) -> str:
    """`GM: win vs >= 2302, GM, not ENG` for a norm's last-round forecast."""
    forecast = norm.forecast
    assert forecast is not None
    if forecast.status == "secured":
        return f"{norm.title}: secured"
    text = f"{norm.title}: {forecast.needs}"
    against = forecast.against
    if forecast.opponent is not None:
        return f"{text} vs {forecast.opponent}"
    if against is None:
        return text
    parts = []
    if against.min_rating is not None:
        parts.append(f">= {against.min_rating}")
    if against.titles:
        parts.append("/".join(against.titles))
    if against.new_federation:
        parts.append("new federation")
    if against.federations_excluded:
        parts.append("not " + "/".join(against.federations_excluded))
    return f"{text} vs {', '.join(parts)}"
