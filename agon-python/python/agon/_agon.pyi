"""Type stubs of the compiled module ``agon._agon`` (re-exported as ``agon``)."""

import os
from typing import IO, Iterator, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

#: The number of action ids: every action of every rule set is an id in ``range(ACTION_COUNT)``.
ACTION_COUNT: int
#: What each plane of ``Game.observation()`` holds, in order.
OBSERVATION_PLANES: list[str]
#: The shape of ``Game.observation()``: ``(planes, 11, 11)``.
OBSERVATION_SHAPE: tuple[int, int, int]

class AgonError(ValueError):
    """Base class of every error agon raises about its input."""

class RulesError(AgonError):
    """A text that names no rule set."""

class PositionError(AgonError):
    """A text that is not a position string."""

    column: int

class IllegalActionError(AgonError):
    """An action that is not an action, not legal now, or after the end of the game."""

class RecordError(AgonError):
    """A defect in a game record, with where and what."""

    file: Optional[str]
    line: int
    column: int
    game: int
    ply: int
    move_number: int
    side: Optional[str]
    kind: str
    message: str

class AgentError(AgonError):
    """A spec string that names no agent."""

class ExperimentError(AgonError):
    """An agon-selfplay output directory that cannot be read."""

RulesLike = Union[str, "Rules"]
ActionLike = Union[str, int]
Source = Union[str, bytes, os.PathLike[str], IO[str], IO[bytes]]

class Rules:
    """A rule set: ``standard``, ``ludii``, or ``switch=value`` pairs joined by commas."""

    def __init__(self, name: str = "standard") -> None: ...
    @staticmethod
    def parse(name: str) -> Rules:
        """Parses a rule-set name; raises ``RulesError`` listing the valid choices."""
    @property
    def name(self) -> str:
        """The canonical name."""
    @staticmethod
    def switches() -> dict[str, str]:
        """Each switch with its valid values, default first."""
    @staticmethod
    def variants() -> list[Rules]:
        """The standard rules and every single-switch variant."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Game:
    """A game: start position, actions played, outcome (see ``help(agon.Game)``)."""

    def __init__(self, variant: Optional[RulesLike] = None, position: Optional[str] = None) -> None: ...
    @staticmethod
    def from_record(text: str) -> Game:
        """Replays one game record (``.agn`` text); raises ``RecordError`` if invalid."""
    @property
    def rules(self) -> Rules: ...
    @property
    def variant(self) -> str: ...
    def legal_actions(self) -> list[str]:
        """Every legal action in notation, in (kind, cells) order."""
    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions, ascending."""
    def action_mask(self) -> npt.NDArray[np.int8]:
        """A 0/1 vector of length ``ACTION_COUNT``: 1 at each legal action id."""
    def count_legal(self) -> int:
        """The number of legal actions, without listing them."""
    def is_legal(self, action: ActionLike) -> bool: ...
    def play(self, action: ActionLike) -> list[str]:
        """Plays an action; returns the captured cells. Raises ``IllegalActionError``."""
    def undo(self) -> Optional[str]:
        """Takes back the last action and returns it, or ``None`` at the start."""
    def is_over(self) -> bool: ...
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"``."""
    def white_score(self) -> Optional[float]:
        """1, 0.5 or 0; ``None`` while the game goes on."""
    def termination(self) -> Optional[str]:
        """Why the game ended (``"formation"``, ``"no-moves"``, ...), or ``None``."""
    def to_move(self) -> str:
        """``"white"`` or ``"black"``."""
    def decider(self) -> str:
        """The side that chooses the next action."""
    def ply(self) -> int:
        """The number of actions played."""
    def history(self) -> list[str]:
        """The actions played, in notation."""
    def position(self) -> str:
        """The position string of the current position."""
    def start_position(self) -> str:
        """The position string of the start position."""
    def board(self) -> dict[str, tuple[str, str, bool]]:
        """``{cell: (side, kind, captured)}`` for every piece on the board."""
    def in_hand(self, side: str) -> dict[str, int]:
        """``{"queen": n, "guard": m}``: pieces a side still holds in hand."""
    def observation(self) -> npt.NDArray[np.float32]:
        """Planes of shape ``OBSERVATION_SHAPE`` on the 11x11 embedding."""
    def evaluate(self) -> Optional[int]:
        """The agents' static evaluation from White's point of view (100 ~ one guard step
        inward), or ``None`` when the side to move has no legal action."""
    def hash(self) -> int:
        """The position's Zobrist hash."""
    def copy(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Optional[dict] = None) -> Game: ...
    def adjudicate_move_limit(self) -> None:
        """Ends the game as a ``move-limit`` draw."""
    def random_playout(self, seed: int, max_plies: int = 10000) -> int:
        """Random actions in Rust until the end or ``max_plies`` plies in all (then a
        ``move-limit`` draw); returns the plies this call played."""
    def record(self, tags: Optional[Sequence[tuple[str, str]]] = None) -> str:
        """The game as a canonical ``.agn`` record."""

class Agent:
    """A computer player built from a spec: ``Agent("alphabeta:depth=4")``."""

    def __init__(self, spec: str, seed: int = 0) -> None: ...
    @property
    def spec(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @staticmethod
    def known() -> list[tuple[str, str]]:
        """The agents and what they do."""
    def choose(self, game: Game) -> str:
        """An action for the deciding side (the GIL is released while searching)."""
    def new_game(self) -> None: ...

class Record:
    """One game of a record file with its verdict."""

    file: Optional[str]
    index: int
    line: int
    @property
    def valid(self) -> bool: ...
    @property
    def error(self) -> Optional[RecordError]: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def termination(self) -> Optional[str]: ...
    @property
    def start(self) -> Optional[str]: ...
    @property
    def actions(self) -> list[str]: ...
    @property
    def moves(self) -> list[str]: ...
    @property
    def captures(self) -> list[list[str]]: ...
    @property
    def comments(self) -> list[tuple[int, str]]:
        """``(ply, text)``: the number of actions before each comment, and its text."""
    def game(self) -> Game: ...
    def text(self) -> str: ...

class RecordReader(Iterator[Record]):
    def __iter__(self) -> RecordReader: ...
    def __next__(self) -> Record: ...

class Validation:
    """What ``validate`` found; true when every game is valid."""

    games: int
    valid: int
    invalid: int
    files: int
    @property
    def errors(self) -> list[RecordError]: ...
    @property
    def ok(self) -> bool: ...
    def summary(self) -> str: ...
    def __bool__(self) -> bool: ...

def perft(
    variant: Optional[Union[RulesLike, Game]] = None,
    depth: int = 1,
    position: Optional[str] = None,
    full: bool = False,
) -> int:
    """Counts action sequences of length ``depth`` (GIL released)."""

def divide(
    variant: Optional[Union[RulesLike, Game]] = None,
    depth: int = 1,
    position: Optional[str] = None,
) -> list[tuple[str, int]]:
    """Perft per first action (GIL released)."""

def read_records(source: Source, strict: bool = False) -> RecordReader:
    """Reads and checks records game by game."""

def validate(sources: Union[Source, Sequence[Source]]) -> Validation:
    """Checks every game of one or more inputs, like ``agon validate``."""

def load_games(directory: Union[str, os.PathLike[str]]) -> dict[str, list]:
    """The games of an agon-selfplay output directory, as columns."""

def action_id(action: str) -> int:
    """The id of an action written in notation."""

def action_from_id(id: int) -> str:
    """The action (notation) of an id."""

def cell_coordinates(cell: str) -> tuple[int, int]:
    """``(i, j)`` such that the cell is ``observation[:, i, j]``."""
