"""Django REST framework, API tokens and the OpenAPI schema."""

import os

from backgammon_site.settings.environment import TRUSTED_PROXY_COUNT

# Django REST framework and the OpenAPI schema
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.token_auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["backgammon_site.core.api_toolkit.JSONParser"],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_THROTTLE_ANON", "120/minute"),
        "user": os.environ.get("API_THROTTLE_USER", "1200/minute"),
    },
    # The API's throttles count the same address as the limits above, never a raw
    # X-Forwarded-For that any client can write.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "EXCEPTION_HANDLER": "backgammon_site.core.api_errors.api_exception_handler",
}
# API tokens (django-rest-knox): stored hashed, sent as "Authorization: Token <token>", valid
# until the player revokes them.
REST_KNOX = {"AUTH_HEADER_PREFIX": "Token", "TOKEN_TTL": None}
# Requests larger than this are refused before they are read (a move is a few dozen bytes).
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
SPECTACULAR_SETTINGS = {
    "TITLE": "Backgammon API",
    "DESCRIPTION": "Correspondence backgammon: matches, challenges and their event logs.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    # No validator badge: it would send the schema's address to swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Record ids in paths (backgammon_site/core/converters.py).
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": ["active", "finished"],
        "ChallengeStatusEnum": ["open", "accepted", "declined", "cancelled"],
        "ActionEnum": "games.services.ACTIONS",
        "VariantEnum": "games.models.Variant",
        "GameVariantEnum": "games.engine.variants.VARIANTS",
        "MatchFormatEnum": "games.models.Challenge.MatchFormat",
        "AnalysisStatusEnum": "games.models.MatchAnalysis.Status",
        "AnalysisKindEnum": ["decisions", "luck"],
        "AnalysedDecisionKindEnum": ["checker", "cube", "take"],
        "TournamentStatusEnum": ["signing_up", "running", "finished", "cancelled"],
        "SeasonStatusEnum": ["signing_up", "running", "finished"],
    },
    "APPEND_COMPONENTS": {
        "securitySchemes": {
            "tokenAuth": {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": 'Send "Token <token>" from POST /api/auth/token/.',
            }
        }
    },
    "SECURITY": [{"tokenAuth": []}],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.streams.document_streams",
    ],
}
