"""The read side: what each replica computes from the event log (docs/architecture.md#reads).

Views are kept per (tournament, seq) in a `cache.ViewCache`, brought forward from the
events (`snapshots`), and assembled into the documents the API and the live feed send
(`standings_table`, `bridge_ranking`, `cards`, `live_tables`). The rules they apply are
the engine's; the rows they read come from `service.db`; nothing here knows HTTP.
"""
