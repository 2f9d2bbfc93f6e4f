"""Path converters shared by the URLs."""

from __future__ import annotations


class RecordId:
    """``<id:...>``: a record's id, as a database's 64-bit key can hold it. A longer number
    matches no route (404) instead of reaching the database as a number it cannot store."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
