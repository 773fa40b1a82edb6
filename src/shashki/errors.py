"""The exceptions shashki raises.  Every one is a ValueError, so `except ValueError` catches
bad input of any kind; the subclasses say which kind."""

from __future__ import annotations

from typing import Any, Iterable, Optional


class ShashkiError(ValueError):
    """Base class of every error shashki raises for bad input."""


class InvalidFenError(ShashkiError):
    """A FEN string that cannot be read: the message names the problem."""


class InvalidKingRunsError(InvalidFenError):
    """A FEN's kings' runs field (frisian: a king's quiet moves in a row) that cannot be read or
    does not fit the position."""


class InvalidMoveError(ShashkiError):
    """Move text that is not a move in the game's notation."""


class IllegalMoveError(ShashkiError):
    """A well-formed move that is not legal in the position.

    `alternatives` holds the legal moves the player may make instead: those of the touched
    piece when it has any (seeds 003 and 004: a touched piece must be moved), else all of them.
    """

    def __init__(self, message: str, alternatives: Iterable[Any] = ()) -> None:
        super().__init__(message)
        self.alternatives = tuple(alternatives)


class AmbiguousMoveError(IllegalMoveError):
    """Short move text that fits several legal moves; `candidates` lists them."""

    def __init__(self, message: str, candidates: Iterable[Any] = ()) -> None:
        super().__init__(message, candidates)
        self.candidates = tuple(candidates)


class InvalidVariantError(ShashkiError):
    """An unknown game name."""


class InvalidPdnError(ShashkiError):
    """A PDN game that cannot be read: the message names the game number, the line and the
    problem (`game_number` and `line_number` hold them when known)."""

    game_number: Optional[int] = None
    line_number: Optional[int] = None


class InvalidOpeningError(ShashkiError):
    """An opening or opening table that shashki's opening tables do not hold."""


class InvalidSquareError(ShashkiError):
    """A square that is not one of the game's playable squares (ints 0..31 on 8x8, 0..49 on
    10x10, 0..63 in turkish, or a name in the game's notation)."""


class InvalidPieceError(ShashkiError):
    """A piece for Board.set_piece_at that is not one (a shashki.Piece: a colour and whether it
    is a king), or that the board cannot hold there: a man on its own crowning row, or a piece
    more than a side may have (the men of a full start on the board).  The board is left as
    it was."""


class InvalidColorError(ShashkiError):
    """A side that is not shashki.WHITE or shashki.BLACK (Board.turn = ...)."""


class InvalidActionError(InvalidMoveError):
    """An action that is not one of the game's action numbers (not an int, or outside
    0..Variant.action_space_size - 1)."""


class IllegalActionError(IllegalMoveError):
    """An action number of the game that no legal move of the position has; `alternatives`
    holds the legal moves (Board.legal_actions() gives their actions)."""


class ActionSpaceError(ShashkiError):
    """A position with more legal moves than the action numbers tell apart (MAXMOVES, 512; the
    action space holds 511 alternates, docs/actions.md).  Only a set-up can have that many (538
    in a valid turkish position with five kings; no game has come near): its moves are listed,
    played and counted as any others, and only the learning surfaces refuse it (actions and
    masks, the vector environment, playouts that record actions)."""


class PlayoutsError(ShashkiError):
    """An argument of shashki.playouts out of range or of the wrong type."""


class InvalidLimitError(ShashkiError):
    """A search limit (depth, nodes, a time, moves to a time control) or a table size out of
    range or of the wrong type: the message names it and says what is allowed."""


class InvalidOptionError(ShashkiError):
    """An option of the engine (a search option) that it does not have, or a value out of
    its range."""


class BatchError(ShashkiError):
    """Positions for shashki.rl.planes_batch or masks_batch that are not Positions (or Boards)
    of one game, or an output array of the wrong shape or dtype."""


class VectorEnvError(ShashkiError):
    """An argument of shashki.rl.VectorEnv out of range or of the wrong type (num_envs, seed,
    jobs, max_plies, opening_plies), actions of the wrong shape or dtype, or a call out of
    order (step before reset, or a step or reset while another thread steps the same env).
    Actions out of range raise InvalidActionError, actions no legal move has
    IllegalActionError."""


class InvalidBufferError(ShashkiError):
    """A Buffer's format, shape or data that do not fit one another (shashki._core.arrays
    from_bytes, and unpickling a Buffer)."""


class InvalidStateError(ShashkiError):
    """An OpenSpiel state string of a shashki game that cannot be read back
    (ShashkiGame.deserialize_state): the message names what was wrong."""
