"""agon.read_records and agon.validate: agon-notation's reader, with the CLI's messages."""

import io
import subprocess

import pytest

import agon

TEXT = '[Event "demo"]\n\n1. h9-g9 b7-c7 *\n\n1. f1-f3 *\n'


def test_text_games_with_verdicts():
    records = list(agon.read_records(TEXT))
    assert [r.valid for r in records] == [True, False]
    good, bad = records
    assert good.index == 1 and good.file is None
    assert good.tags == {"Event": "demo", "Result": "*", "Variant": "standard"}
    assert good.actions == ["h9-g9", "b7-c7"] and good.captures == [[], []]
    assert good.result == "*" and good.termination is None and good.variant == "standard"
    assert good.game().history() == good.actions
    assert good.error is None
    assert isinstance(bad.error, agon.RecordError)
    assert str(bad.error) == "5:4: game 2, ply 1 (move 1, White): f1-f3 is not legal: f3 is not next to f1"
    assert (bad.error.line, bad.error.column, bad.error.game, bad.error.ply) == (5, 4, 2, 1)
    assert (bad.error.kind, bad.error.side, bad.error.move_number) == ("illegal", "white", 1)
    assert bad.actions == [] and bad.tags == {}
    with pytest.raises(agon.RecordError):
        bad.game()


def test_comments_come_with_their_place():
    text = '[Event "c"]\n{ before }\n1. h9-g9 {a good start} b7-c7 ; the reply\n2. g9-f9 *\n'
    (record,) = agon.read_records(text)
    assert record.comments == [(0, "before"), (1, "a good start"), (2, "the reply")]
    # The canonical record keeps them.
    assert record.text().endswith("{before} 1. h9-g9 {a good start} 1... b7-c7 {the reply} 2. g9-f9 *\n")
    assert next(iter(agon.read_records(TEXT))).comments == []


def test_strict_raises_at_the_first_invalid_game():
    reader = agon.read_records(TEXT, strict=True)
    assert next(reader).valid
    with pytest.raises(agon.RecordError, match="f3 is not next to f1"):
        next(reader)


def test_sources_path_bytes_and_file_objects_agree(data):
    path = data / "records" / "valid" / "standard.agn"
    texts = [r.text() for r in agon.read_records(str(path))]
    assert len(texts) > 1
    assert [r.text() for r in agon.read_records(path)] == texts
    assert [r.text() for r in agon.read_records(path.read_bytes())] == texts
    assert [r.text() for r in agon.read_records(io.StringIO(path.read_text()))] == texts
    assert {r.file for r in agon.read_records(path)} == {str(path)}
    # Canonical text reads back as the same games.
    assert [r.text() for r in agon.read_records("\n".join(texts))] == texts


def test_missing_file_has_the_cli_message(tmp_path):
    missing = tmp_path / "nope.agn"
    with pytest.raises(FileNotFoundError, match=f"^cannot open {missing}: no such file or directory$"):
        agon.read_records(str(missing))
    with pytest.raises(TypeError):
        agon.read_records(42)


def test_captures_and_replay_of_valid_files(data):
    games = 0
    for path in sorted((data / "records" / "valid").glob("*.agn")):
        for record in agon.read_records(path):
            assert record.valid, record.error
            game = record.game()
            assert game.history() == record.actions
            assert len(record.moves) == len(record.captures) == len(record.actions)
            for move, action, captured in zip(record.moves, record.actions, record.captures):
                assert move == action + "".join("x" + c for c in captured)
            games += 1
    assert agon.validate(data / "records" / "valid").games == games


def test_validate_counts_and_summary(data):
    valid = data / "records" / "valid"
    files = len(list(valid.rglob("*.agn")))
    report = agon.validate(valid)
    assert report and report.ok and report.invalid == 0 and report.files == files
    assert report.summary() == f"{report.games} games in {files} files: {report.games} valid, 0 invalid"
    bad = agon.validate([TEXT])
    assert not bad and bad.games == 2 and bad.invalid == 1 and bad.files == 1
    assert bad.summary() == "2 games: 1 valid, 1 invalid"
    assert [e.ply for e in bad.errors] == [1]


def test_validate_prints_what_the_cli_prints(data, agon_bin, monkeypatch):
    invalid = sorted(str(p.relative_to(data.parent.parent)) for p in (data / "records" / "invalid").glob("*.agn"))
    repo = data.parent.parent
    cli = subprocess.run([agon_bin, "validate", "--no-progress", "--threads", "1", *invalid], cwd=repo, capture_output=True, text=True)
    assert cli.returncode == 1, cli.stderr
    *lines, summary = cli.stdout.splitlines()
    monkeypatch.chdir(repo)
    report = agon.validate(invalid)
    assert [str(e) for e in report.errors] == lines
    assert report.summary() == summary
    assert len(lines) > 20
