"""Routes of a player's own account pages."""

from django.urls import path

from accounts import views

urlpatterns = [
    path("", views.settings_index, name="settings"),
    path("api-tokens/", views.api_tokens, name="api-tokens"),
    path("api-tokens/new/", views.api_token_create, name="api-token-create"),
    path("api-tokens/revoke/", views.api_token_revoke, name="api-token-revoke"),
    path("notifications/", views.notification_settings, name="notification-settings"),
    path("appearance/", views.appearance_settings, name="appearance-settings"),
    path("play/", views.play_settings, name="play-settings"),
    path("name/", views.name_settings, name="name-settings"),
    path("language/", views.language_settings, name="language-settings"),
]
