"""API token authentication: knox's, without its sweep of the caller's other tokens."""

from typing import Any

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import exceptions


class TokenAuthentication(KnoxTokenAuthentication):
    """Knox reads all of a user's tokens on every request to delete the expired ones. Ours never
    expire (REST_KNOX TOKEN_TTL is None), so that query is skipped for a token without expiry;
    a token with one is still checked, and swept, as knox does. A token that is not plain
    hexadecimal is refused before it reaches the database (a NUL there is a server error)."""

    def authenticate_credentials(self, token: bytes) -> Any:
        text = token.decode("utf-8", errors="replace")
        if not text.isascii() or not text.isalnum():
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token: Any) -> bool:
        if auth_token.expiry is None:
            return False
        return bool(super()._cleanup_token(auth_token))


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme, as knox's."""

    target_class = "accounts.token_auth.TokenAuthentication"
