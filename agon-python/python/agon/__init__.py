"""Agon (Queen's Guard, London 1842) for Python.

The rules, records and computer players of the agon toolkit, compiled from its Rust
engine: every rule question is answered by ``agon-core`` and every record or position by
``agon-notation``, so Python sees exactly the games the ``agon`` command sees.

>>> import agon
>>> g = agon.Game()
>>> len(g.legal_actions())
27
>>> g.play("h9-g9")
[]
>>> agon.perft("standard", 3)
18417

Submodules: ``agon.openspiel`` (an OpenSpiel game, ``register()``) and ``agon.pettingzoo``
(an AEC environment, ``env()``). The guide is docs/python.md in the repository.
"""

from ._agon import (
    ACTION_COUNT,
    OBSERVATION_PLANES,
    OBSERVATION_SHAPE,
    AgentError,
    AgonError,
    ExperimentError,
    IllegalActionError,
    PositionError,
    RecordError,
    RulesError,
    Agent,
    Game,
    Record,
    RecordReader,
    Rules,
    Validation,
    __version__,
    action_from_id,
    action_id,
    cell_coordinates,
    divide,
    load_games,
    perft,
    read_records,
    validate,
)

__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_PLANES",
    "OBSERVATION_SHAPE",
    "AgentError",
    "AgonError",
    "ExperimentError",
    "IllegalActionError",
    "PositionError",
    "RecordError",
    "RulesError",
    "Agent",
    "Game",
    "Record",
    "RecordReader",
    "Rules",
    "Validation",
    "__version__",
    "action_from_id",
    "action_id",
    "cell_coordinates",
    "divide",
    "load_games",
    "perft",
    "read_records",
    "validate",
]
