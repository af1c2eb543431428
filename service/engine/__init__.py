"""The pure domain core: pairing systems, scoring, bridge, TRF.

Synchronous, deterministic, and free of I/O; usable without the service
(`from service.engine.pairing import roundrobin`).
"""
