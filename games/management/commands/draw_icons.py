"""`manage.py draw_icons`: the installed app's PNG icons, drawn from the favicon by Chromium."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

STATIC = Path(__file__).resolve().parents[2] / "static" / "games"
# The maskable icon's background is the favicon's own green: a phone crops it to its shape and
# keeps only the middle 80 % sure to show, so the drawing is shrunk to fit inside.
ICONS = {
    "icon-192.png": (192, None),
    "icon-512.png": (512, None),
    "maskable-512.png": (512, "#1d5c3f"),
}


class Command(BaseCommand):
    help = (
        "Draw the PNG icons of the web app manifest (games/static/games/icons/) from "
        "games/static/games/favicon.svg with Chromium; run again after changing the favicon."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        from playwright.sync_api import sync_playwright

        svg = base64.b64encode((STATIC / "favicon.svg").read_bytes()).decode()
        chromium_path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path, args=["--no-sandbox", "--disable-gpu"]
            )
            for name, (size, background) in ICONS.items():
                page = browser.new_page(viewport={"width": size, "height": size})
                drawing = size * 0.7 if background else size
                page.set_content(
                    f'<body style="margin:0;display:grid;place-items:center;height:{size}px;'
                    f'background:{background or "transparent"}">'
                    f'<img src="data:image/svg+xml;base64,{svg}" width="{drawing}" '
                    f'height="{drawing}"></body>'
                )
                page.screenshot(path=STATIC / "icons" / name, omit_background=not background)
                page.close()
                self.stdout.write(f"games/static/games/icons/{name}: {size}x{size}")
            browser.close()
