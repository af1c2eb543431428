"""`arbiter pair`, `check` and `generate` for team events (TRF-26 team files; docs/cli.md).

`pair` pairs the next round by FIDE C.04.6 (`team-swiss`) or the Berger tables
(`team-round-robin`), chosen by `--system` or else the file's 192/092 record; `check`
re-pairs each round of a team Swiss from the rounds before it and lists what the
C.04.6 checker finds; `generate --teams N` plays a random team Swiss and writes it as
a TRF-26 team file that `check` replays. The engine does the work
(`engine/teams/draw.py`, `pairing_input.py`, `generated.py`); this module reads files
and prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["TEAM_SYSTEMS", "check_teams", "generate_teams", "pair_teams", "team_options"]

TEAM_SYSTEMS = ("team-swiss", "team-round-robin")


def _document(path: str, args: argparse.Namespace) -> Any:
    from service.engine.teams.model import TeamSystem
    from service.engine.teams.trf import parse_team_trf
    from service.engine.trf import decode_trf

    with open(path, "rb") as file:
        text = decode_trf(file.read())
    system = None
    if args.system in TEAM_SYSTEMS:
        robin = args.system == "team-round-robin"
        system = TeamSystem.ROUND_ROBIN if robin else TeamSystem.SWISS
    return parse_team_trf(text, system=system)


def _options(args: argparse.Namespace, doc: Any) -> dict[str, Any]:
    from service.engine.pairing.team_swiss.model import ColourPreferenceType, PrimaryScore

    return {
        "record_352": dict(doc.players.headers).get("352", ""),
        "colour_preferences": ColourPreferenceType(args.colour_preferences),
        "primary_score": PrimaryScore(args.primary_score),
        "initial_colour": doc.players.tournament.initial_colour,
        "secondary_for_colours": not args.no_secondary_for_colours,
    }


def pair_teams(args: argparse.Namespace) -> int:
    """The next round of a team file, as a match table (or the compute endpoint's JSON)."""
    from service.engine.teams.draw import TeamPairingSystem, next_team_round

    doc = _document(args.file, args)
    system = TeamPairingSystem(
        args.system if args.system in TEAM_SYSTEMS else _declared(doc.event.system.value)
    )
    draw = next_team_round(doc.event, system, **_options(args, doc))
    if args.format == "json":  # the shape of POST /v1/compute/pairings for a team file
        body: dict[str, Any] = {
            "round": draw.round,
            "system": system.value,
            "matches": [
                {
                    "match": m.table,
                    "home": m.home,
                    "away": m.away,
                    "boards": [
                        {"board": b.board, "white": b.white, "black": b.black} for b in m.boards
                    ],
                }
                for m in draw.matches
            ],
            "byes": [{"team": draw.bye, "type": draw.bye_kind.value}] if draw.bye_kind else [],
        }
        if args.explain:
            body["notes"] = list(draw.notes)
        json.dump(body, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    names = {t.number: t.name for t in doc.event.teams}
    print(f"Round {draw.round} ({system.value})")
    for m in draw.matches:
        print(f"{m.table:>4}  {m.home:>3} {names[m.home][:24]:<24} - {m.away:>3} {names[m.away]}")
        for b in m.boards:
            colour = "W" if b.white_team == m.home else "B"
            white = "-" if b.white is None else str(b.white)
            black = "-" if b.black is None else str(b.black)
            print(f"        board {b.board}: {colour}  {white:>5} - {black}")
    if draw.bye is not None and draw.bye_kind is not None:
        print(f"bye   {draw.bye:>3} {names[draw.bye][:24]:<24} ({draw.bye_kind.value})")
    for note in draw.notes if args.explain else ():
        print(f"# {note}")
    return 0


def _declared(system: str) -> str:
    return "team-round-robin" if system == "round-robin" else "team-swiss"


def check_teams(args: argparse.Namespace) -> int:
    """Replay a team Swiss round by round with the C.04.6 checker. The TRF carries no
    table numbers, so the table order is not compared."""
    from service.engine.errors import EngineError
    from service.engine.pairing.team_swiss.checker import check_team_round
    from service.engine.teams.pairing_input import (
        played_round,
        present_teams,
        states_of,
        team_states,
        team_swiss_settings,
    )

    doc = _document(args.file, args)
    system = args.system if args.system in TEAM_SYSTEMS else _declared(doc.event.system.value)
    if system != "team-swiss":
        raise EngineError(
            "only a team Swiss is checked round by round; a round-robin follows the Berger tables",
            field="--system",
        )
    options = _options(args, doc)
    event = doc.event
    settings = team_swiss_settings(
        event,
        colour_preferences=options["colour_preferences"],
        primary_score=options["primary_score"],
        initial_colour=options["initial_colour"],
        secondary_for_colours=options["secondary_for_colours"],
    )
    agree = 0
    for rnd in event.rounds:
        states = team_states(event, before_round=rnd.number, primary=settings.primary_score)
        present = states_of(states, present_teams(rnd))
        try:
            found = check_team_round(present, played_round(rnd), settings)
        except EngineError as error:
            print(f"round {rnd.number}: cannot be paired by the team-swiss rules: {error}")
            continue
        found = [v for v in found if v.criterion != "tables"]
        if not found:
            agree += 1
            continue
        print(f"round {rnd.number}: differs from the team-swiss rules")
        for violation in found:
            print(f"  {violation.criterion:<12} {violation.detail}")
    print(f"{agree} of {len(event.rounds)} rounds agree")
    return 0 if agree == len(event.rounds) else 1


def generate_teams(args: argparse.Namespace) -> int:
    """`arbiter generate --teams N`: a random team Swiss as a TRF-26 team file."""
    from service.engine.model import Colour
    from service.engine.pairing.team_swiss.generator import generate_team_tournament
    from service.engine.pairing.team_swiss.model import (
        ColourPreferenceType,
        PrimaryScore,
        TeamSwissSettings,
    )
    from service.engine.teams.generated import generated_team_document
    from service.engine.teams.trf import write_team_trf
    from service.errors import InvalidInput

    if args.system not in (None, "team-swiss"):
        raise InvalidInput(
            f"a generated team event is a team Swiss, not {args.system}", field="--system"
        )
    if args.teams < 2:
        raise InvalidInput(
            f"too few teams: a team event needs at least 2, {args.teams} given", field="--teams"
        )
    if args.rounds < 1:
        raise InvalidInput(f"a team event needs rounds: {args.rounds} given", field="--rounds")
    if args.boards < 1:
        raise InvalidInput(f"a match needs boards: {args.boards} given", field="--boards")
    settings = TeamSwissSettings(
        rounds=args.rounds,
        colour_preferences=ColourPreferenceType(args.colour_preferences),
        primary_score=PrimaryScore(args.primary_score),
        initial_colour=Colour.WHITE if args.first_colour == "white" else Colour.BLACK,
        secondary_for_colours=not args.no_secondary_for_colours,
    )
    tournament = generate_team_tournament(args.teams, settings, seed=args.seed, boards=args.boards)
    text = write_team_trf(generated_team_document(tournament))
    if args.output:
        from pathlib import Path

        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def team_options(command: argparse.ArgumentParser) -> None:
    """The team Swiss's settings (C.04.6 art. 1.2 and 1.7)."""
    command.add_argument(
        "--colour-preferences",
        choices=("A", "B", "none"),
        default="A",
        help="team Swiss colour preferences (C.04.6 art. 1.7; default A)",
    )
    command.add_argument(
        "--primary-score",
        choices=("match", "game"),
        default="match",
        help="team Swiss score groups by match or game points (art. 1.2)",
    )
    command.add_argument(
        "--no-secondary-for-colours",
        action="store_true",
        help="team Swiss: the competition's rules say not to use the secondary score when "
        "choosing a match's first-team (C.04.6 4.2.2)",
    )
