"""Loading the order-only recsys files; malformed files give clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from memkit.errors import ConfigError, DataFormatError
from evals.recsys.data import DATASETS, default_data_dir, load_dataset, load_file, subsample


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "data.txt"
    path.write_text(text)
    return path


def test_pairs_keep_each_users_order(tmp_path: Path) -> None:
    data = load_file(_write(tmp_path, "1 10\n1 20\n1 10\n2 30\n"), "pairs")
    assert data.sequences == {1: [1, 2, 1], 2: [3]}
    assert data.n_items == 3 and data.n_interactions == 4


def test_lists_keep_each_users_order(tmp_path: Path) -> None:
    data = load_file(_write(tmp_path, "5 7 8 7\n6 9\n"), "lists")
    assert data.sequences == {5: [1, 2, 1], 6: [3]}


@pytest.mark.parametrize(
    ("layout", "text", "line", "message"),
    [
        ("pairs", "1 2\n1 x\n", 2, "integer"),
        ("pairs", "1 2 3\n", 1, "fields"),
        ("pairs", "1 2\n0 3\n", 2, "start at 1"),
        ("pairs", "1 2\n2 3\n1 4\n", 3, "contiguous"),
        ("lists", "1\n", 1, "user item"),
        ("lists", "1 2\n1 3\n", 2, "twice"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path: Path, layout: str, text: str, line: int, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DataFormatError, match=message) as info:
        load_file(path, layout)
    assert info.value.line == line and info.value.path == str(path)


def test_empty_and_missing_files(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="no interactions"):
        load_file(_write(tmp_path, "\n\n"), "pairs")
    with pytest.raises(DataFormatError, match="not found"):
        load_file(tmp_path / "nope.txt", "pairs")
    with pytest.raises(ConfigError):
        load_dataset("movies")


def test_subsample_keeps_long_enough_users_and_renumbers_items(tmp_path: Path) -> None:
    text = "".join(f"{u} {' '.join(str(100 + u * 10 + i) for i in range(u + 3))}\n" for u in range(1, 9))
    data = load_file(_write(tmp_path, text), "lists")
    sample = subsample(data, n_users=3, seed=0, min_length=5)
    assert len(sample.sequences) == 3
    assert all(len(s) >= 5 for s in sample.sequences.values())
    assert sorted({i for s in sample.sequences.values() for i in s}) == list(range(1, sample.n_items + 1))
    assert subsample(data, 3, seed=0).sequences == sample.sequences


@pytest.mark.skipif(not default_data_dir().is_dir(), reason="shared recsys data not present")
@pytest.mark.parametrize("name", sorted(DATASETS))
def test_shared_files_parse(name: str) -> None:
    data = load_dataset(name)
    assert len(data.sequences) > 10_000 and data.n_items > 10_000


def test_prepare_draws_users_with_enough_interactions(tmp_path: Path) -> None:
    # the default Amazon run samples among users with >= min_length interactions and says so
    from evals.recsys.runner import RunSettings, prepare

    lines = [f"{u} " + " ".join(str(100 + (u * 7 + i) % 40) for i in range(5 + u % 6)) for u in range(1, 41)]
    (tmp_path / "amazon_toys_iclrec.txt").write_text("\n".join(lines) + "\n")
    settings = RunSettings(data="toys", limit_users=10, min_length=8, data_dir=str(tmp_path), sid_codebook=4, item_dim=4)
    prepared = prepare(settings)
    assert len(prepared.sequences) == 10
    assert all(len(s) >= 8 for s in prepared.sequences.values())
    assert any(">= 8 interactions" in note and "SUBSAMPLE" in note for note in prepared.notes)
