"""Bearer tokens: random, shown once, stored as SHA-256 digests (docs/security.md#tokens)."""

from __future__ import annotations

import hashlib
import hmac
import secrets

__all__ = ["digest_matches", "hash_token", "new_token", "token_matches"]


def new_token(prefix: str) -> str:
    """A fresh token such as `org_...` (organizer) or `ply_...` (player)."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    return digest_matches(hash_token(token), stored_hash)


def digest_matches(digest: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a token's digest (`hash_token`) with a stored one."""
    return stored_hash is not None and hmac.compare_digest(digest, stored_hash)
