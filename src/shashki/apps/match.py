"""Matches between engine settings: micro-matches from opening tables, colours swapped.

>>> from shashki.apps.match import match
>>> result = match("depth=3", "depth=1", "russian", games=4)
>>> result.games_played, result.wins + result.draws + result.losses
(4, 4)

Each opening is played twice, once with each player on White (the micro-match of seed 001:
"two games are played, with the colours swapped"), so an opening that favours one colour
favours both players equally.  A game ends when `Board.outcome()` says so (no legal move, or a
draw rule of the game), or at a hard cap of `max_moves` moves of each side, which is scored as a
draw.  Draws that a player must claim (english, WCDF: threefold repetition, 40 moves without
progress) are claimed as soon as they have happened; the claim a player may make *before* a
repeating move is not, since the side to move may be playing on to win.

Players are engine specs (``"depth=4"``, ``"movetime=0.1,hash=16"``, an EngineSpec), external
engines that speak the Hub protocol (``"hub:scan hub"``, with the match's depth or movetime), a
10x10 engine over DXP (``"dxp:127.0.0.1:27531"``, a follower such as ``shashki dxp``), or any
object with a ``choose(board)`` method returning a legal Move (or its text, or a
SearchResult), so a benchmark can put another program on one side; a plain function of the
board works too (see shashki.apps.players).  Results are from the first player's (A's) point of view.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Set, TextIO, Tuple, Union

from .. import opening
from ..opening import Opening
from ..board import Board
from ..limits import MAX_DEPTH
from ..variants import RUSSIAN, VARIANTS, Variant, get_variant
from .args import SubParsers, add_command, add_variant, even, seconds, whole
from .games import (DEFAULT_MAX_MOVES, GameRecord, StartPosition, adjudicate, play_game,
                    play_record)
from .harness import SPRT, HarnessError, PairResult, Tally, run
from .players import (DEFAULT_DEPTH, DEFAULT_HASH_MB, EnginePlayer, EngineSpec, EngineSpecError,
                      Player, PlayerStats, dxp_address, hub_command, make_player,
                      player_name)
from .records import describe_outcome

__all__ = ["DEFAULT_DEPTH", "DEFAULT_HASH_MB", "DEFAULT_MAX_MOVES", "MAX_GAMES",
           "RANDOM_OPENING_PLIES", "EnginePlayer", "EngineSpec", "EngineSpecError",
           "GameRecord", "MatchResult", "Player", "PlayerStats", "StartPosition", "adjudicate",
           "choose_openings", "describe_outcome", "match", "play_game", "play_record"]

#: what seeds random.Random
Seed = Union[int, float, str, bytes, None]

#: the most games of one match (each pair of games takes an opening)
MAX_GAMES = 1_000_000
#: the largest move cap accepted: no game is that long
MAX_MAX_MOVES = 10_000
#: plies played at random from the start position for a "random" opening
RANDOM_OPENING_PLIES = 4


# --- openings ----------------------------------------------------------------------------------

def choose_openings(variant: Union[str, Variant], table: Optional[str] = None, pairs: int = 1,
                    seed: Seed = None) -> List[StartPosition]:
    """`pairs` start positions for a match of `variant`.

    `table` is the id of one of the game's opening tables (shashki.opening_tables), "start"
    (the start position, every pair the same), "random" (RANDOM_OPENING_PLIES random plies
    from the start, reproducible from `seed`), or None for the game's own choice
    (`Variant.match_openings`).
    From a table, openings barred as lost are left out; the rest are taken evenly spaced over
    the whole table (its categories in turn) or, with a `seed`, sampled at random.  A table
    smaller than `pairs` is gone through again from the start.
    """
    variant = get_variant(variant)
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 1:
        raise ValueError(f"pairs must be a positive int, not {pairs!r}")
    table = variant.match_openings if table is None else table
    if table == "start":
        return [StartPosition("start", variant.start_fen)] * pairs
    if table == "random":
        return _random_openings(variant, pairs, seed)
    entries = [o for o in opening.openings(variant, table=table) if not o.lost]
    if seed is not None:
        rng = random.Random(seed)
        picked = rng.sample(entries, min(pairs, len(entries)))
    else:
        count = min(pairs, len(entries))
        picked = [entries[i * len(entries) // count] for i in range(count)]
    while len(picked) < pairs:
        picked.append(picked[len(picked) % len(entries)])
    return [StartPosition(o.name, o.fen) for o in picked]


def distinct_openings(variant: Union[str, Variant], table: Optional[str] = None,
                      pairs: int = 1, seed: Seed = None) -> List[StartPosition]:
    """`pairs` different start positions for a long match (the harness): the openings of
    `table` (see choose_openings) in a random order from `seed`, each once, then, when more
    are needed, those openings with one or two random plies more, never the same position
    twice.  Engines with node limits play the same game from the same position, so a match
    that repeated an opening would count one result twice."""
    variant = get_variant(variant)
    name = variant.match_openings if table is None else table
    rng = random.Random(seed)
    if name in ("start", "random"):
        return choose_openings(variant, "random", pairs, seed)
    entries = [StartPosition(o.name, o.fen)
               for o in opening.openings(variant, table=name) if not o.lost]
    rng.shuffle(entries)
    out = entries[:pairs]
    seen = {Board(variant, fen=s.fen).fen() for s in out}
    tries = 0
    while len(out) < pairs and tries < 100 * pairs:
        tries += 1
        origin = entries[tries % len(entries)]
        board = Board(variant, fen=origin.fen)
        moves = _random_plies(board, 1 + (tries // len(entries)) % 2, rng)
        fen = board.fen()
        if board.outcome() is None and fen not in seen:
            seen.add(fen)
            out.append(StartPosition(f"{origin.name} + {' '.join(moves)}", fen))
    return [out[i % len(out)] for i in range(pairs)]   # too few positions: go round again


def _random_plies(board: Board, plies: int, rng: random.Random) -> List[str]:
    """Play up to `plies` random moves on `board` (fewer if the game ends); their texts."""
    moves: List[str] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        moves.append(str(board.push(rng.choice(legal))))
    return moves


def _random_openings(variant: Variant, pairs: int, seed: Seed) -> List[StartPosition]:
    rng = random.Random(seed)
    out: List[StartPosition] = []
    seen: Set[str] = set()
    for _ in range(100 * pairs):
        board = Board(variant)
        moves = _random_plies(board, RANDOM_OPENING_PLIES, rng)
        fen = board.fen()
        if board.outcome() is None and fen not in seen:
            seen.add(fen)
            out.append(StartPosition(f"random {len(out) + 1}: {' '.join(moves)}", fen))
            if len(out) == pairs:
                return out
    # a game with fewer distinct short openings than asked for: go round them again
    return [out[i % len(out)] for i in range(pairs)]


# --- the match ---------------------------------------------------------------------------------

@dataclass
class MatchResult:
    """The games of a match and its score, from player A's point of view."""

    variant: str
    a: str
    b: str
    games: List[GameRecord] = field(default_factory=list)
    stats_a: PlayerStats = field(default_factory=PlayerStats)
    stats_b: PlayerStats = field(default_factory=PlayerStats)

    @property
    def games_played(self) -> int:
        return len(self.games)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.points_a == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.points_a == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.points_a == 0.0)

    @property
    def points(self) -> float:
        """A's points: 1 a win, 1/2 a draw."""
        return sum(g.points_a for g in self.games)

    @property
    def score(self) -> float:
        """A's points as a fraction of the games, 0.0 .. 1.0 (0.5 with no games)."""
        return self.points / len(self.games) if self.games else 0.5

    @property
    def percentage(self) -> float:
        return 100.0 * self.score

    @property
    def elo(self) -> float:
        """The Elo difference A - B that the score implies (±inf for 100% / 0%)."""
        s = self.score
        if s <= 0.0:
            return -math.inf
        if s >= 1.0:
            return math.inf
        return -400.0 * math.log10(1.0 / s - 1.0)

    @property
    def pairs(self) -> List[float]:
        """A's points in each micro-match (the two games of one opening), in order; an
        unfinished pair (a match stopped early) is left out."""
        by_opening: Dict[int, List[float]] = {}
        for g in self.games:
            by_opening.setdefault((g.number - 1) // 2, []).append(g.points_a)
        return [sum(p) for p in by_opening.values() if len(p) == 2]

    def pair_score(self) -> Tuple[int, int, int]:
        """(micro-matches A won, drawn, lost)."""
        pairs = self.pairs
        return (sum(p > 1 for p in pairs), sum(p == 1 for p in pairs),
                sum(p < 1 for p in pairs))

    def summary(self) -> str:
        """The final score as text."""
        won, drawn, lost = self.pair_score()
        elo = self.elo
        elo_text = f"{elo:+.0f}" if math.isfinite(elo) else ("+inf" if elo > 0 else "-inf")
        lines = [
            f"{self.a} vs {self.b}, {self.variant}, {self.games_played} games",
            f"{self.a}: +{self.wins} ={self.draws} -{self.losses}, "
            f"{_points(self.points)}/{self.games_played} points, {self.percentage:.1f}% "
            f"(Elo {elo_text})",
            f"micro-matches: {self.a} won {won}, drew {drawn}, lost {lost}",
        ]
        for label, name, stats in (("A", self.a, self.stats_a), ("B", self.b, self.stats_b)):
            if stats.searches:
                lines.append(f"{label} {name}: {stats.moves} moves, mean depth "
                             f"{stats.mean_depth:.1f}, {stats.nodes} nodes, {_seconds(stats.time)}, "
                             f"{stats.nps / 1000:.0f} knodes/s")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _points(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def match(a: Union[str, EngineSpec, Player, Callable[[Board], Any]],
          b: Union[str, EngineSpec, Player, Callable[[Board], Any]],
          variant: Union[str, Variant] = RUSSIAN.name, *,
          openings: Union[str, Iterable[Union[Opening, StartPosition, str]], None] = None,
          games: int = 10, depth: Optional[int] = None, movetime: Optional[float] = None,
          max_moves: int = DEFAULT_MAX_MOVES, seed: Seed = None,
          on_game: Optional[Callable[[GameRecord, MatchResult], object]] = None) -> MatchResult:
    """Play A against B: `games` games (an even number), two per opening with colours
    swapped, A on White in the first of each pair.

    `a`, `b`: engine specs (text or EngineSpec) or players (see the module docstring).
    `openings`: a table id, "start" or "random" (see choose_openings), or a list of
    Openings / StartPositions / FEN strings to play in order.  `depth`/`movetime` are the
    search limit of a spec that names none.  `on_game(record, result)` is called after each
    game with the running MatchResult.  Returns a MatchResult.
    """
    variant = get_variant(variant)
    if isinstance(games, bool) or not isinstance(games, int) or games % 2 or \
            not 2 <= games <= MAX_GAMES:
        raise ValueError(f"games must be an even number from 2 to {MAX_GAMES} (each opening "
                         f"is played twice, colours swapped), not {games!r}")
    if not (isinstance(max_moves, int) and max_moves > 0):
        raise ValueError(f"max_moves must be a positive int, not {max_moves!r}")
    pairs = games // 2
    starts = _starts(variant, openings, pairs, seed)
    players: List[Any] = []
    try:
        for item, label in ((a, "A"), (b, "B")):
            players.append(make_player(item, variant, depth, movetime, label))
        return _play_match(players[0], players[1], variant, starts, max_moves, on_game)
    finally:
        # the players made here from specs end here (a Hub engine's process)
        for player, item in zip(players, (a, b)):
            if player is not item and hasattr(player, "close"):
                player.close()


def _play_match(player_a: Any, player_b: Any, variant: Variant, starts: List[StartPosition],
                max_moves: int,
                on_game: Optional[Callable[[GameRecord, MatchResult], object]]) -> MatchResult:
    name_a, name_b = player_name(player_a), player_name(player_b)
    if name_a == name_b:
        name_a, name_b = f"A {name_a}", f"B {name_b}"
    result = MatchResult(variant.name, name_a, name_b)
    number = 0
    for start in starts:
        for a_white in (True, False):
            number += 1
            record = play_record(player_a, player_b, variant, start, a_white, number,
                                 max_moves, result.stats_a, result.stats_b, name_a, name_b)
            result.games.append(record)
            if on_game is not None:
                on_game(record, result)
    return result


def _starts(variant: Variant,
            openings: Union[str, Iterable[Union[Opening, StartPosition, str]], None],
            pairs: int, seed: Seed) -> List[StartPosition]:
    if openings is None or isinstance(openings, str):
        return choose_openings(variant, openings, pairs, seed)
    starts: List[StartPosition] = []
    for item in openings:
        if isinstance(item, StartPosition):
            starts.append(item)
        elif isinstance(item, str):
            starts.append(StartPosition(item, Board(variant, fen=item).fen()))
        elif hasattr(item, "fen") and hasattr(item, "name"):
            starts.append(StartPosition(item.name, item.fen))
        else:
            raise ValueError(f"an opening is an Opening, a StartPosition or a FEN string, "
                             f"not {type(item).__name__}")
    if not starts:
        raise ValueError("no openings given")
    return [starts[i % len(starts)] for i in range(pairs)]


# --- the command -------------------------------------------------------------------------------

def add_parser(sub: SubParsers) -> None:
    """Add `shashki match` to the subcommands of the shashki parser."""
    p = add_command(
        sub, "match", cmd_match, help="play engine settings against each other",
        description="Play engine A against engine B from opening positions, each opening "
                    "twice with colours swapped, and print the score.  An engine is a spec "
                    "such as depth=4, movetime=0.1, nodes=20000, 'depth=6,hash=16', or an "
                    "external engine that speaks the Hub protocol, 'hub:COMMAND' (e.g. "
                    "'hub:scan hub'), searching with --depth or --movetime, or a 10x10 engine "
                    "served over DXP, 'dxp:HOST:PORT' (e.g. a `shashki dxp`), with its own "
                    "time.")
    p.add_argument("a", metavar="A", help="engine spec of player A (its score is reported)")
    p.add_argument("b", metavar="B", help="engine spec of player B")
    add_variant(p, "--variant", "-v", default=RUSSIAN.name)
    tables = "; ".join(f"{v.name}: {', '.join(opening.opening_tables(v)) or 'none'}"
                       for v in VARIANTS)
    p.add_argument("--openings", metavar="TABLE",
                   help=f"where the openings come from: one of the game's opening tables "
                        f"({tables}), 'start' or 'random'; default: "
                        + ", ".join(f"{v.name} {v.match_openings}" for v in VARIANTS))
    p.add_argument("--games", "-n", default=10,
                   type=even("--games", 2, MAX_GAMES, "each opening is played twice, colours "
                                                     "swapped"),
                   help="games to play, an even number (default 10)")
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--movetime", type=seconds("--movetime"), metavar="S",
                       help="seconds per move for a spec that sets no limit")
    limit.add_argument("--depth", type=whole("--depth", 1, MAX_DEPTH), metavar="D",
                       help=f"search depth for a spec that sets no limit "
                            f"(default {DEFAULT_DEPTH})")
    p.add_argument("--max-moves", type=whole("--max-moves", 1, MAX_MAX_MOVES),
                   default=DEFAULT_MAX_MOVES, metavar="N",
                   help=f"moves of each side before a game is drawn (default "
                        f"{DEFAULT_MAX_MOVES})")
    p.add_argument("--seed", type=int, help="sample the openings at random with this seed")
    p.add_argument("--save", metavar="FILE.pdn", help="write the games to FILE as PDN")
    p.add_argument("--concurrency", "-j", type=whole("--concurrency", 1, 64), default=1,
                   metavar="N", help="games played at once, in N worker processes (default 1)")
    p.add_argument("--sprt", type=_bounds, metavar="ELO0,ELO1",
                   help="stop by a sequential probability ratio test of H0: A is ELO0 stronger "
                        "against H1: ELO1 (logistic Elo); --games is then the most to play")
    p.add_argument("--alpha", type=_rate("--alpha"), default=0.05,
                   help="SPRT false positive rate (default 0.05)")
    p.add_argument("--beta", type=_rate("--beta"), default=0.05,
                   help="SPRT false negative rate (default 0.05)")
    p.add_argument("--model", choices=("pentanomial", "trinomial"), default="pentanomial",
                   help="SPRT and Elo error model: outcomes of game pairs (default) or of "
                        "single games")
    p.add_argument("--log", metavar="FILE.jsonl",
                   help="append the result (specs, games, Elo, SPRT) as a JSON line to FILE "
                        "(an infinite Elo, when a side won every game, is the string +inf or "
                        "-inf)")


def _bounds(text: str) -> Tuple[float, float]:
    parts = text.replace(" ", "").split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        low, high = float(parts[0]), float(parts[1])
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sprt takes two Elo values ELO0,ELO1, not "
                                         f"{text!r}") from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise argparse.ArgumentTypeError(f"--sprt needs ELO0 < ELO1, not {text!r}")
    return low, high


def _rate(name: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not 0.0 < value < 0.5:
            raise argparse.ArgumentTypeError(f"{name} must be a number between 0 and 0.5, "
                                             f"not {text!r}")
        return value
    return parse


def _spec(text: str, depth: Optional[int], movetime: Optional[float]) -> Union[str, EngineSpec]:
    """A player of the command line: ``hub:COMMAND`` and ``dxp:HOST:PORT`` as they are, else
    an engine spec."""
    if hub_command(text) is not None or dxp_address(text) is not None:
        return text
    return EngineSpec.parse(text).with_defaults(depth, movetime)


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    spec_a = _spec(args.a, args.depth, args.movetime)
    spec_b = _spec(args.b, args.depth, args.movetime)
    variant = get_variant(args.variant)
    table = args.openings or variant.match_openings
    if args.sprt or args.seed is None and args.games // 2 > 1:
        starts = distinct_openings(variant, args.openings, args.games // 2, args.seed)
    else:
        starts = choose_openings(variant, args.openings, args.games // 2, args.seed)
    sprt = SPRT(args.sprt[0], args.sprt[1], args.alpha, args.beta, args.model) \
        if args.sprt else None
    name_a, name_b = str(spec_a), str(spec_b)
    if name_a == name_b:
        name_a, name_b = f"A {name_a}", f"B {name_b}"
    # a Hub engine is named by what it says it is (the workers know it)
    names = None if isinstance(spec_a, str) or isinstance(spec_b, str) else (name_a, name_b)
    print(f"match: A {spec_a} vs B {spec_b}, {variant.name}, {args.games} games"
          f"{' at most' if sprt else ''} from {table}, colours swapped per opening, cap "
          f"{args.max_moves} moves{f', {args.concurrency} at once' if args.concurrency > 1 else ''}"
          + (f"; {sprt}" if sprt else ""), file=out)
    out.flush()
    result = MatchResult(variant.name, name_a, name_b)

    def report(pair: PairResult, tally: Tally) -> None:
        first = pair.games[0]
        result.a, result.b = (first.white, first.black) if first.a_white else \
            (first.black, first.white)
        for record in pair.games:
            result.games.append(record)
            a_side = "A white" if record.a_white else "A black"
            # the reason last and whole: clipped to a column it lost its end ("draw: two
            # pieces or fewer, at least o...", issue 33.5)
            print(f"game {record.number:>3}  {_clip(record.opening.name, 24):<24} {a_side}  "
                  f"{record.result:<7} {record.plies:>3} plies  "
                  f"A {_points(result.points)}/{result.games_played} "
                  f"(+{result.wins} ={result.draws} -{result.losses})  {record.reason}",
                  file=out)
        for mine, theirs in ((result.stats_a, pair.stats_a), (result.stats_b, pair.stats_b)):
            for key in ("moves", "searches", "nodes", "time", "depth_sum"):
                setattr(mine, key, getattr(mine, key) + getattr(theirs, key))
        if sprt is not None:
            low, high = sprt.bounds()
            print(f"  after {tally.pairs} pairs: LLR {sprt.llr(tally):+.2f} "
                  f"[{low:+.2f}, {high:+.2f}], {tally.elo_text(args.model)}", file=out)
        out.flush()

    try:
        _, tally, decision = run(spec_a, spec_b, variant, starts,
                                 concurrency=args.concurrency, max_moves=args.max_moves,
                                 sprt=sprt, names=names, on_pair=report,
                                 depth=args.depth, movetime=args.movetime)
    except HarnessError as exc:
        print(f"shashki match: {exc}", file=out)
        return 2
    result.games.sort(key=lambda g: g.number)
    print(result.summary(), file=out)
    print(f"{tally.elo_text(args.model)}, {tally.pairs} pairs, pentanomial "
          f"{tally.pentanomial}", file=out)
    if sprt is not None:
        low, high = sprt.bounds()
        verdict = {"H1": f"H1 accepted: A is at least {sprt.elo1:g} Elo stronger",
                   "H0": f"H0 accepted: A is not {sprt.elo1:g} Elo stronger (at most "
                         f"{sprt.elo0:g})",
                   None: "no decision: the games ran out first",
                   "stopped": "no decision: stopped"}[decision]
        print(f"{sprt}: LLR {sprt.llr(tally):+.2f} [{low:+.2f}, {high:+.2f}], {verdict}",
              file=out)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as handle:
            for record in result.games:
                record.pdn().write(handle)
        print(f"games saved to {args.save}", file=out)
    if args.log:
        elo, low_elo, high_elo = tally.elo(args.model)
        entry = {"a": str(spec_a), "b": str(spec_b), "a_spec": _settings(spec_a),
                 "b_spec": _settings(spec_b), "variant": variant.name,
                 "openings": table, "games": tally.games, "pairs": tally.pairs,
                 "wdl": [result.wins, result.draws, result.losses],
                 "pentanomial": tally.pentanomial, "elo": log_number(elo),
                 "elo95": [log_number(low_elo), log_number(high_elo)],
                 "sprt": None if sprt is None else {
                     "elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha,
                     "beta": sprt.beta, "model": sprt.model,
                     "llr": log_number(sprt.llr(tally), 3), "decision": decision}}
        with open(args.log, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, allow_nan=False) + "\n")
    return 0


#: numbers of the log beyond this are infinities by another name (no Elo difference or LLR
#: is that large): written as one
LOG_INFINITY = 1e9


def log_number(value: float, digits: int = 1) -> Union[float, str, None]:
    """`value` for the JSON log of `--log`, which JSON must read: rounded to `digits`, an
    infinite one (a side that won every game has an Elo difference of +inf) as the string
    "+inf" or "-inf" (Python's float() reads it back), NaN as null."""
    if math.isnan(value):
        return None
    if abs(value) >= LOG_INFINITY:
        return "+inf" if value > 0 else "-inf"
    return round(value, digits)


def _settings(spec: Union[str, EngineSpec]) -> str:
    return spec if isinstance(spec, str) else spec.settings()


def _seconds(seconds: float) -> str:
    # a fast engine's moves add up to hundredths of a second: "0.0 s" said none (issue 33.5)
    if seconds >= 10:
        return f"{seconds:.0f} s"
    if seconds >= 1:
        return f"{seconds:.1f} s"
    return f"{seconds * 1000:.1f} ms"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 3] + "..."
