"""The error a request of `shashki serve` gets: an HTTP status and a JSON body
``{"error": what was wrong, "expected": what the server takes}``."""

from __future__ import annotations

from typing import Dict

from ...errors import ShashkiError

__all__ = ["RequestError"]


class RequestError(ShashkiError):
    """A request the server refuses: `status` is its 4xx code, the message says what was
    wrong and `expected` what would have been accepted."""

    def __init__(self, status: int, message: str, expected: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.expected = expected

    def body(self) -> Dict[str, str]:
        body = {"error": str(self)}
        if self.expected:
            body["expected"] = self.expected
        return body
