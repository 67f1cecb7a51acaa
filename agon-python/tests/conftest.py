"""Shared fixtures: the repository's test data and, when CI provides them, the `agon` and
`agon-selfplay` binaries (environment variables AGON_BIN and AGON_SELFPLAY_BIN) to compare
the Python API with the command line."""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


def _binary(variable: str, name: str):
    path = os.environ.get(variable) or shutil.which(name)
    if not path:
        pytest.skip(f"set {variable} to the {name} binary to compare with the command line")
    return path


@pytest.fixture
def data() -> pathlib.Path:
    return DATA


@pytest.fixture(scope="session")
def agon_bin() -> str:
    return _binary("AGON_BIN", "agon")


@pytest.fixture(scope="session")
def selfplay_bin() -> str:
    return _binary("AGON_SELFPLAY_BIN", "agon-selfplay")
