"""Reading the links a test's emails carry, as the person who gets them would follow them."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

CONFIRMATION_LINK = re.compile(r"https?://\S+/accounts/confirm-email/\S+/")


def confirmation_path(outbox: list[Any], address: str) -> str:
    """The path of the address-confirmation link in the last email sent to ``address``."""
    message = [sent for sent in outbox if address in sent.to][-1]
    return urlsplit(CONFIRMATION_LINK.search(message.body).group()).path
