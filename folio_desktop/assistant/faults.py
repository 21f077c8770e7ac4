"""What went wrong talking to the model, in words a lawyer can act on.

The loop turns every SDK exception into an AssistantError with a kind (for tests and the panel's
styling), a message and, for rate limits and overload, whether and when a retry makes sense.
"""

from __future__ import annotations

from dataclasses import dataclass

RETRY_LIMIT_S = 60.0  # never wait longer than this on a retry-after


@dataclass
class AssistantError:
    kind: str  # no_key | auth | permission | rate_limit | overloaded | server | network | bad_request | stream
    message: str
    retryable: bool = False
    retry_after: float | None = None  # seconds, from the response when it says


def no_key_error() -> AssistantError:
    return AssistantError("no_key", "No Anthropic API key is set. Add one in Settings, or set the "
                                    "ANTHROPIC_API_KEY environment variable.")


def _retry_after(response) -> float | None:
    if response is None:
        return None
    headers = getattr(response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return max(0.0, min(float(raw) * scale, RETRY_LIMIT_S))
        except ValueError:
            continue
    return None


def _api_message(exc) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error") if isinstance(body.get("error"), dict) else body
        if isinstance(error.get("message"), str):
            return error["message"]
    return str(getattr(exc, "message", "") or exc)


def _error_type(exc) -> str | None:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error") if isinstance(body.get("error"), dict) else body
        if isinstance(error.get("type"), str):
            return error["type"]
    return None


def classify(exc: BaseException, model: str) -> AssistantError:
    """An SDK exception (or a stream's error event) as an AssistantError."""
    import anthropic

    detail = _api_message(exc)
    transport = type(exc).__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "h11")
    if isinstance(exc, ConnectionError | TimeoutError) or transport:
        # a socket closed mid-stream surfaces as the HTTP library's own error, not the SDK's
        return AssistantError("network", "The connection to the Anthropic API was lost in the middle of a reply. "
                                         "Check your network and send your message again.", retryable=True)
    if isinstance(exc, anthropic.APIConnectionError):  # includes timeouts
        what = "timed out" if isinstance(exc, anthropic.APITimeoutError) else "was lost"
        return AssistantError("network", f"The connection to the Anthropic API {what}. Check your network "
                                         "and send your message again.", retryable=True)
    status = getattr(exc, "status_code", None)
    kind = _error_type(exc)
    response = getattr(exc, "response", None)
    if status == 401 or kind == "authentication_error":
        return AssistantError("auth", "The Anthropic API refused the API key (401). Check the key in Settings.")
    if status == 403 or kind == "permission_error":
        return AssistantError("permission", f"This API key may not use {model} (403: {detail}). Choose another "
                                            "model in Settings or check the key's permissions.")
    if status == 429 or kind == "rate_limit_error":
        wait = _retry_after(response)
        when = f" in {wait:.0f} s" if wait is not None else " in a moment"
        return AssistantError("rate_limit", f"The Anthropic API is rate limiting this key (429). Try again{when}.",
                              retryable=True, retry_after=wait)
    if status == 529 or kind == "overloaded_error":
        return AssistantError("overloaded", "Claude is overloaded right now (529). Try again in a minute.",
                              retryable=True, retry_after=_retry_after(response))
    if status == 400 or kind == "invalid_request_error":
        return AssistantError("bad_request", f"The Anthropic API rejected the request (400): {detail}")
    if isinstance(status, int) and status >= 500 or kind == "api_error":
        return AssistantError("server", f"The Anthropic API had an internal error ({status or 'stream'}). "
                                        "Try again.", retryable=True, retry_after=_retry_after(response))
    if isinstance(exc, anthropic.APIError):
        return AssistantError("stream", f"The reply from the Anthropic API broke off: {detail}", retryable=True)
    return AssistantError("stream", f"Unexpected problem talking to the model: {type(exc).__name__}: {detail}")
