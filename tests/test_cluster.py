"""A perft run on a dask cluster that loses a worker (issue 43.4): three worker processes, one
killed with SIGKILL while the run goes on, and the count is exact; a run stopped half-way
resumes from its checkpoint on a cluster of another size, every task counted once.  Its own
tox env (tox -e cluster) and CI step: it starts processes and takes about a minute."""

import os
import signal

import pytest

import shashki
from shashki import perft as runner

from perftfile import read_blocks, shared_dir

distributed = pytest.importorskip("distributed")

pytestmark = [pytest.mark.cluster, pytest.mark.subprocess]

GAME, DEPTH = "russian", 12


def _published():
    """The published count (shared/perft/start.perft), known before any run here."""
    path = shared_dir() / "perft" / "start.perft"
    if not path.exists():
        pytest.skip(f"needs the shared perft data ({path})")
    (block,) = [b for b in read_blocks(path) if b.id == f"{GAME}-start"]
    return block.perft[DEPTH]


def _cluster(workers):
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=50)
    return cluster, distributed.Client(cluster)


class KillOne:
    """A progress callback that kills one worker process (SIGKILL: no goodbye to the
    scheduler) once `after` tasks are done."""

    def __init__(self, client, after):
        self.client, self.after, self.killed = client, after, None

    def __call__(self, done, total, task, count):
        if self.killed is None and done >= self.after:
            pids = self.client.run(os.getpid)           # {worker address: its pid}
            address, pid = sorted(pids.items())[0]
            os.kill(pid, signal.SIGKILL)
            self.killed = address


def test_a_worker_killed_mid_run_leaves_the_count_exact():
    cluster, client = _cluster(3)
    with cluster, client:
        kill = KillOne(client, after=8)
        result = runner.run(shashki.Position(GAME), DEPTH, executor=client.get_executor(),
                            progress=kill)
        assert kill.killed is not None and result.tasks > 8
    assert result.nodes == _published()


class Stop(Exception):
    pass


def test_a_stopped_run_resumes_on_another_cluster_size(tmp_path):
    path = tmp_path / "run.checkpoint"

    def stop_half_way(done, total, task, count):
        if done >= total // 2:
            raise Stop()

    cluster, client = _cluster(3)
    with cluster, client:
        with pytest.raises(Stop):
            runner.run(shashki.Position(GAME), DEPTH, executor=client.get_executor(),
                       checkpoint=path, progress=stop_half_way)
    cluster, client = _cluster(2)
    with cluster, client:
        result = runner.run(shashki.Position(GAME), DEPTH, executor=client.get_executor(),
                            checkpoint=path)
    assert result.nodes == _published()
    assert 0 < result.resumed < result.tasks
    # each task counted once: the resumed leaves and those counted now make the total
    assert 0 < result.counted < result.nodes
