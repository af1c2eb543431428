"""HTTP API: FastAPI app factory, routers per resource, dependencies, problem+json."""
