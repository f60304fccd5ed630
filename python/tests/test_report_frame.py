"""Result.report() and _repr_html_ against the text `trainmc run` prints;
Result.to_frame() and SweepResult.to_frame() against `--samples` and the
sweep document (issue 37 part 2)."""
import csv
import html
import sys

import pytest

import trainmc
from conftest import experiment, run_cli

DESIGN = experiment("design-48.json")
SPIKES = experiment("design-48-spikes.json")


def answer(text):
    """The report from its first blank line on: the header names the run's
    elapsed time and how the experiment was given, which differ."""
    return text[text.index("\n\n"):]


@pytest.mark.parametrize("detail", [False, True])
def test_report_is_the_programs(cli, detail):
    r = trainmc.run(SPIKES, replicas=300, seed=3, threads=1)
    want = run_cli(cli, "run", SPIKES, "-n", "300", "--seed", "3", "-t", "1", "--quiet",
                   *(["--detail"] if detail else []))
    got = r.report(detail=detail)
    assert got.startswith("trainmc run: ") and answer(got) == answer(want)
    assert len(r.report(True)) > len(r.report(False))


def test_repr_html_escapes_the_brief_report():
    r = trainmc.run(DESIGN, replicas=100, seed=1)
    page = r._repr_html_()
    assert page.startswith("<pre>") and page.endswith("</pre>")
    assert "P(T &lt;= 30 days)" in page  # "<=" escaped
    assert html.unescape(page[len("<pre>"):-len("</pre>")]) == r.report()


def test_frame_is_the_samples(cli, tmp_path):
    pandas = pytest.importorskip("pandas")
    r = trainmc.run(SPIKES, replicas=200, seed=4, threads=1)
    df = r.to_frame()
    assert isinstance(df, pandas.DataFrame) and len(df) == 200
    out = tmp_path / "samples.csv"
    run_cli(cli, "run", SPIKES, "-n", "200", "--seed", "4", "--quiet", "--samples", str(out))
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    shared = [c for c in df.columns if c in rows[0]]
    # every count and split row of the samples, and T, are columns
    assert len(shared) >= 30 and "completion_days" in shared and "saves_days" in shared
    for c in shared:
        want = [float(row[c]) for row in rows]
        got = list(df[c].astype(float))
        assert all(abs(a - b) <= 1e-9 * max(1, abs(b)) for a, b in zip(got, want)), c
    assert list(df["weight"]) == [1.0] * 200
    assert list(df.columns[:1]) == ["completion_days"]


def test_frame_without_per_replica_figures():
    pytest.importorskip("pandas")
    r = trainmc.run(DESIGN, replicas=50, seed=2, per_replica=False)
    df = r.to_frame()
    assert list(df.columns) == ["completion_days"]
    assert list(df["completion_days"]) == list(r.completion_days)


def test_sweep_frame_is_the_document():
    pytest.importorskip("pandas")
    s = trainmc.sweep(DESIGN, {"job.cards": [48, 64]}, replicas=200, seed=1)
    df = s.to_frame()
    assert list(df["job.cards"]) == [48, 64]
    for i, row in enumerate(s.rows):
        assert df["probability"][i] == row["deadline"]["probability"]
        assert [df["probability_lo"][i], df["probability_hi"][i]] == row["deadline"]["ci95"]
        assert df["completion_days_mean"][i] == row["completion_days"]["mean"]
        assert df["difference_days"][i] == row["difference_days"]["mean"]


def test_frame_names_pandas_when_missing(monkeypatch):
    r = trainmc.run(DESIGN, replicas=20, seed=2)
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    with pytest.raises(ImportError, match="python3-pandas"):
        r.to_frame()


def test_sweep_importance_is_the_programs(cli_json):
    """sweep(importance=...) gives each setting the importance object of
    `trainmc sweep --importance` (here plain replicas in its place)."""
    rare = experiment("design-48-rare-misses.json")
    s = trainmc.sweep(rare, {"deadline.days": [30]}, replicas=20000, seed=1000,
                      importance="auto", importance_plain_max=10 ** 6)
    want = cli_json("sweep", rare, "--vary", "deadline.days=30", "-n", "20000", "--seed",
                    "1000", "--importance", "auto", "--importance-plain-max", "1000000")
    assert s.rows[0]["importance"] == want["settings"][0]["importance"]
    assert s.rows[0]["importance"]["plain"]["replicas"] > 20000
