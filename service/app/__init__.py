"""The application layer (docs/architecture.md#the-layers): one module per workflow.

Each workflow authorizes (the caller's `Actor` comes from the API's token check and is
checked against the rules here), locks the tournament, calls the engine for every rule,
and persists rows plus event in the caller's transaction. The router then commits once
through `api.publish.commit_and_publish`, which issues the live notification inside the
same transaction (and, for a request with `Idempotency-Key`, leaves the commit to the
idempotency middleware so the stored response commits with the write).

- `create`: a tournament or a bridge event, with its tokens
- `import_trf`: a tournament from a TRF file, in the file's round state
- `register`: a player, or a late entry in a running Swiss tournament
- `remove_player`: a player taken off the open start list
- `start`: close the start list, number the players, pair the schedule (bulk inserts)
- `pair_round`: the next Swiss round (the pairing runs off the event loop)
- `report_result`: a result report through the engine's state machine (`engine.result_reporting`)
- `withdraw`: a player's details, or a withdrawal with its forfeits
- `settings`, `archive`: the organizer's safe settings; archival
- `tokens`: a token rotated or revoked (and a private tournament's viewer token)
- `bridge_entry`: a bridge result entered, corrected or removed, or a PBN file of them
- `lifecycle`: the tournament's status, moved only by `engine.lifecycle.transition`
- `offload`: the thread pool for CPU-heavy work
- `write_queue`: the writers of one tournament queue in memory, one at a time per process

Routers parse, call one workflow, render (`tests/test_layers.py`: no route imports a
database writer); `db/` stores rows and knows no rules.
"""
