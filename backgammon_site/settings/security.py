"""The browser's defences: HTTPS, cookies, proxies, CSRF origins and the content policy."""

import os
import urllib.parse

from csp.constants import NONCE, NONE, SELF

from backgammon_site.settings.environment import DEBUG, DISCORD_LOGIN, SITE_URL, env_flag, env_list

# The browser's defences. With DEBUG off the site is taken to be served over HTTPS: cookies
# go over HTTPS only, plain http is redirected to it, and HSTS tells browsers to use nothing
# else. DJANGO_HTTPS=0 turns that off for a production-shaped run on plain http on this
# machine (the tests, the load test); nothing public should run so.
_https = env_flag("DJANGO_HTTPS", "0" if DEBUG else "1")
SESSION_COOKIE_SECURE = _https
CSRF_COOKIE_SECURE = _https
LANGUAGE_COOKIE_SECURE = _https
SECURE_SSL_REDIRECT = _https
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000")) if _https else 0
# Both are promises about every subdomain and to browsers' preload lists, hard to take back:
# set them once the whole domain is served over HTTPS.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_flag("DJANGO_HSTS_PRELOAD")
# Behind a proxy that ends TLS, requests arrive over http: X-Forwarded-Proto says what the
# browser used. Only a proxy that always sets that header (replacing the client's) may be
# trusted with it, and only when the service cannot be reached but through it; otherwise any
# client sending "X-Forwarded-Proto: https" over plain http passes for secure (no redirect,
# and the CSRF checks believe an https origin).
if env_flag("DJANGO_BEHIND_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
_site = urllib.parse.urlsplit(SITE_URL)
CSRF_TRUSTED_ORIGINS = [
    f"{_site.scheme}://{_site.netloc}",
    *env_list("DJANGO_CSRF_TRUSTED_ORIGINS", ""),
]
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Content-Security-Policy (django-csp): scripts and styles from the site's own files only (an
# inline script needs request.csp_nonce; the board's SVG is styled by classes, so style
# attributes stay refused), images also as data: URLs, connections to the site itself and its
# WebSocket push. The API's docs pages add what they need (backgammon_site/urls.py).
_push_origin = f"{'wss' if _site.scheme == 'https' else 'ws'}://{_site.netloc}"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF, _push_origin],
        # The service worker (/sw.js) that shows web push notifications.
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "frame-ancestors": [NONE],
        # Logging in with Discord posts here, then is redirected there.
        "form-action": [SELF, *(["https://discord.com"] if DISCORD_LOGIN else [])],
    }
}
