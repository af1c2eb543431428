"""Imported last by the compute workers' forkserver (`app.compute_pool`), once it has
imported the workers' modules: collects and freezes its heap (`gc.freeze`, which
Python documents for this very case, before `fork`).

Every worker is forked from that heap. Frozen, it is out of the collector's sight, so a
new worker does not walk the preloaded modules' objects in its first collection (about
a hundred milliseconds before its first answer, measured), nor write to their pages,
which stay shared with the forkserver instead of being copied into each worker.
"""

from __future__ import annotations

import gc

gc.collect()
gc.freeze()
