"""The examples in the package's docstrings run and print what they say."""

import doctest

import pytest

import agon


@pytest.mark.parametrize("module", ["agon", "agon.openspiel", "agon.pettingzoo"])
def test_docstring_examples(module):
    if module != "agon":
        pytest.importorskip(module.split(".")[1].replace("openspiel", "pyspiel"))
    imported = __import__(module, fromlist=["_"])
    failures, tried = doctest.testmod(imported, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
