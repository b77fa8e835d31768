"""A persistent library killed mid-batch loses nothing that ``add`` acknowledged."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from memkit.embeddings import HashingEmbedder
from memkit.experience import ExperienceLibrary
from stores.experience.chroma import ChromaBackend

WRITER = textwrap.dedent(
    """
    import sys
    from memkit.embeddings import HashingEmbedder
    from memkit.experience import ExperienceEntry, ExperienceLibrary
    from stores.experience.chroma import ChromaBackend

    # Threshold 1.0: only exact copies merge, so every acknowledged id must exist afterwards.
    lib = ExperienceLibrary(ChromaBackend.persistent(sys.argv[1], "crash"), HashingEmbedder(dim=64), novelty_threshold=1.0)
    batch = 0
    while True:  # until killed
        entries = [
            ExperienceEntry(id=f"b{batch}-{i}", tier="case", text=f"case {batch} {i} unique words w{batch}x{i}")
            for i in range(300)
        ]
        lib.add(entries)
        print("ack", batch, flush=True)
        batch += 1
    """
)


def test_killed_writer_keeps_every_acknowledged_batch(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path / "lib")],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "ANONYMIZED_TELEMETRY": "False", "PYTHONPATH": str(root)},
    )
    assert proc.stdout is not None
    acked: list[int] = []
    for line in proc.stdout:
        acked.append(int(line.split()[1]))
        if len(acked) == 3:
            # The writer is already inside its next batch when we read this ack.
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL and acked == [0, 1, 2]

    lib = ExperienceLibrary(ChromaBackend.persistent(tmp_path / "lib", "crash"), HashingEmbedder(dim=64))
    wanted = [f"b{b}-{i}" for b in acked for i in range(300)]
    found = lib.get_many(wanted)
    assert all(e is not None for e in found), f"{sum(e is None for e in found)} acknowledged entries lost"
    assert lib.count() >= len(wanted)
    # The reopened library still works for writes and queries.
    assert lib.search("case 1 7 unique words w1x7", k=1)[0].entry.id == "b1-7"
