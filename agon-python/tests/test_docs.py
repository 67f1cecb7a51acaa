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


def _stub():
    import ast
    import pathlib

    path = pathlib.Path(agon._agon.__file__).with_name("_agon.pyi")
    tree = ast.parse(path.read_text())
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {
                item.name if isinstance(item, ast.FunctionDef) else item.target.id
                for item in node.body
                if isinstance(item, ast.FunctionDef) or (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name))
            }
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, classes


def test_the_stubs_describe_every_public_name():
    names, classes = _stub()
    public = {n for n in dir(agon._agon) if not n.startswith("_")} | {"__version__"}
    assert public <= names, public - names
    for name, members in classes.items():
        runtime = {m for m in vars(getattr(agon._agon, name)) if not m.startswith("_")}
        if issubclass(getattr(agon._agon, name), BaseException):
            continue  # attributes set on instances
        assert runtime == {m for m in members if not m.startswith("_")}, name
