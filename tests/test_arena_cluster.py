"""The arena's runners: here, a local pool, a Dask cluster; the same rows and summary wherever the games ran.

The cluster is a local one of two worker processes (Dask's LocalCluster) that run the pure-Python core
(``BARBU_PURE=1``) while this process runs the compiled one, where it was built: the results must not change.
"""

from __future__ import annotations

import importlib.util
import logging
import socket
from pathlib import Path

import pytest

from barbu.arena import besigue, duplicate, runners
from barbu.arena.runners import ClusterError, DaskCluster, InProcess, LocalPool, in_job_order, open_runner
from barbu.cli.main import main as barbu

ROOT = Path(__file__).resolve().parent.parent


def test_in_job_order_waits_for_the_earlier_jobs():
    assert list(in_job_order([(2, "c"), (0, "a"), (3, "d"), (1, "b")])) == ["a", "b", "c", "d"]


def test_a_local_pool_gives_what_one_process_gives(tmp_path):
    jobs = [("classic", ["rule", "random", "random", "random"], 4, rot, 2, True) for rot in range(4)]
    with InProcess() as here, LocalPool(2) as pool:
        alone = dict(here.results(duplicate.rotation_job, jobs))
        pooled = dict(pool.results(duplicate.rotation_job, jobs))
    assert pooled == alone and len(alone[3][0]) == 2 and alone[3][1][0]["arena"] == {"seed": 4, "rotation": 3}


def test_open_runner_picks_by_the_options():
    assert isinstance(open_runner(1), InProcess) and isinstance(open_runner(0), InProcess)
    pool = open_runner(3)
    assert isinstance(pool, LocalPool) and pool.workers == 3


def test_without_the_cluster_extra_a_plain_refusal(monkeypatch, capsys):
    monkeypatch.setattr(runners, "find_spec", lambda name: None)  # as if distributed were not installed
    with pytest.raises(ClusterError) as e:
        open_runner(cluster="tcp://127.0.0.1:8786")
    assert e.value.code == "arena-cluster-needs-extra" and "barbu[cluster]" in str(e.value)
    assert barbu(["--lang", "en", "arena", "--deals", "1", "--cluster", "127.0.0.1:8786"]) == 2
    printed = capsys.readouterr()
    assert "pip install 'barbu[cluster]'" in printed.err + printed.out and "Traceback" not in printed.err


def test_workers_and_cluster_together_are_refused(capsys):
    assert barbu(["--lang", "en", "arena", "--deals", "1", "--workers", "2", "--cluster", "tcp://h:8786"]) == 2
    assert barbu(["--lang", "en", "arena", "--deals", "1", "--workers", "-1"]) == 2
    printed = capsys.readouterr()
    assert "give one or the other" in printed.err + printed.out
    assert "--workers must be at least 1" in printed.err + printed.out


def test_bad_and_unreachable_addresses():
    pytest.importorskip("distributed")
    assert runners.normal_address("10.1.2.3") == "tcp://10.1.2.3:8786"
    assert runners.normal_address(" tcp://host:9000 ") == "tcp://host:9000"
    for bad in ("tcp://", "host:port"):
        with pytest.raises(ClusterError, match="is not a cluster address"):
            open_runner(cluster=bad)
    with socket.socket() as s:  # a port of this machine that nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ClusterError) as e:
        open_runner(cluster=f"127.0.0.1:{port}", timeout=2)
    assert e.value.code == "arena-cluster-unreachable" and f"tcp://127.0.0.1:{port}" in str(e.value)
    assert logging.getLogger("distributed").level != logging.CRITICAL + 1  # Dask's loggers given back


@pytest.fixture(scope="module")
def cluster():
    """Two worker processes of one thread each, on the pure-Python core."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address="127.0.0.1:0",
        silence_logs=logging.ERROR,
        env={"BARBU_PURE": "1"},
    ) as c:
        yield c.scheduler_address


def strength_module():
    spec = importlib.util.spec_from_file_location("strength_bench", ROOT / "benchmarks" / "strength.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_cluster_gives_the_rows_summary_and_records_of_a_local_run(cluster, tmp_path):
    # Players that use the solver's core (compiled here where built, pure on the workers), with a time cap
    # never reached: deterministic for a seed.
    bots = ["search(samples=3, seconds=30)", "rule", "random", "random"]
    measured = ["rule", "random", "random", "random"]  # a whole match a rotation: the quick players
    with open_runner(cluster=cluster) as on_cluster:
        assert on_cluster.workers == 2 and on_cluster.address == cluster and on_cluster.version
        assert not any(on_cluster._client.run(lambda: __import__("barbu.solver.fast").solver.fast.COMPILED).values())
        seen: list[int] = []
        rows, summary = duplicate.run_arena(
            "classic", bots, 3, seed=7, out_dir=str(tmp_path / "cluster"), progress=seen.append, runner=on_cluster
        )
        # Bésigue: the progress lines too, in seed order, whichever board ends first.
        progress_there: list[tuple[int, object]] = []
        b_there = besigue.run_arena(
            "besigue",
            "rule",
            "random",
            4,
            seed=3,
            out=str(tmp_path / "b-cluster"),
            progress=lambda n, s: progress_there.append((n, s)),
            runner=on_cluster,
        )
        strength = strength_module()
        strength.play("classic", measured, 2, 1, tmp_path / "there.jsonl", frozenset({"play"}), on_cluster)
    local_rows, local_summary = duplicate.run_arena("classic", bots, 3, seed=7, out_dir=str(tmp_path / "here"))
    assert rows == local_rows and len(rows) == 12 and sum(seen) == 12
    assert summary == local_summary
    here_files = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert here_files == sorted(p.name for p in (tmp_path / "cluster").iterdir()) and len(here_files) == 4
    for name in here_files:
        assert (tmp_path / "cluster" / name).read_text() == (tmp_path / "here" / name).read_text()
    progress_here: list[tuple[int, object]] = []
    b_here = besigue.run_arena(
        "besigue",
        "rule",
        "random",
        4,
        seed=3,
        out=str(tmp_path / "b-here"),
        progress=lambda n, s: progress_here.append((n, s)),
    )
    assert b_there == b_here and progress_there == progress_here
    assert sorted(p.name for p in (tmp_path / "b-here").iterdir()) == sorted(
        p.name for p in (tmp_path / "b-cluster").iterdir()
    )
    strength.play("classic", measured, 2, 1, tmp_path / "here.jsonl", frozenset({"play"}))
    assert strength.read([tmp_path / "there.jsonl"]) == strength.read([tmp_path / "here.jsonl"])


def test_a_cluster_with_another_barbu_is_refused(cluster, monkeypatch):
    monkeypatch.setattr(runners, "barbu_version", lambda: "0.0.0+other")
    with pytest.raises(ClusterError) as e:
        open_runner(cluster=cluster)
    assert e.value.code == "arena-cluster-versions" and "0.0.0+other" in str(e.value)
    assert str(e.value).count("127.0.0.1") == 2  # both workers named, with their version
    monkeypatch.undo()
    # A worker that joins later is checked by every job it is given.
    with open_runner(cluster=cluster) as on_cluster:
        on_cluster.version = "0.0.0+other"
        with pytest.raises(ClusterError) as e:
            list(on_cluster.results(duplicate.rotation_job, [("classic", ["rule"] * 4, 1, 0, 1)]))
    assert e.value.code == "arena-cluster-worker-version" and "not 0.0.0+other" in str(e.value)


def test_a_scheduler_without_workers_is_refused():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=0, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR
    ) as empty:
        with pytest.raises(ClusterError) as e:
            DaskCluster(empty.scheduler_address, timeout=1)
    assert e.value.code == "arena-cluster-no-workers" and "dask worker" in str(e.value)


def test_the_arena_command_on_a_cluster(cluster, tmp_path, capsys):
    for rules, bots, records in (("salad(players=3)", "rule,random,random", 3), ("besigue", "rule,random", 4)):
        out = tmp_path / rules
        assert (
            barbu(
                [
                    "--lang",
                    "en",
                    "arena",
                    "--rules",
                    rules,
                    "--bots",
                    bots,
                    "--deals",
                    "2",
                    "--cluster",
                    cluster,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        printed = capsys.readouterr().out
        assert f"cluster {cluster}: 2 worker(s), each with barbu" in printed
        assert len(list(out.glob("*.jsonl"))) == records
