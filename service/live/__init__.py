"""Live updates: the event bus that tells WebSocket handlers a tournament changed."""
