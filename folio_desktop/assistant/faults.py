"""What went wrong talking to the model, in words a lawyer can act on.

The loop turns every SDK exception (and every deadline of transport.Timeouts) into an
AssistantError with a kind (for tests and the panel's styling), a message and, for rate limits and
overload, whether and when a retry makes sense. A stop reason that is not a normal end of turn
(refusal, max_tokens, model_context_window_exceeded, pause_turn) becomes one too, so the panel
shows it for what it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .transport import ReplyTimeout

RETRY_WAIT_LIMIT_S = 60.0  # the longest retry-after the loop waits out itself; longer is reported


@dataclass
class AssistantError:
    # no_key | auth | permission | rate_limit | overloaded | server | network | timeout | bad_request |
    # prompt_too_long | stream | refusal | max_tokens | context_window | pause_turn | stop_reason
    kind: str
    message: str
    retryable: bool = False
    retry_after: float | None = None  # seconds, from the response when it says (never capped)


def no_key_error() -> AssistantError:
    return AssistantError("no_key", "No Anthropic API key is set. Add one in Settings, or set the "
                                    "ANTHROPIC_API_KEY environment variable.")


def _retry_after(response) -> float | None:
    """Seconds the response asks the client to wait: retry-after-ms, or retry-after as seconds or
    as an HTTP date."""
    if response is None:
        return None
    headers = getattr(response, "headers", None) or {}
    raw = headers.get("retry-after-ms")
    if raw is not None:
        try:
            return max(0.0, float(raw) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if raw is None:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        import email.utils  # (only for a Retry-After date: 16 ms the window's start need not pay)

        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def describe_wait(seconds: float, now: datetime | None = None) -> tuple[str, str]:
    """("60 minutes", "09:47"): a wait in words, and the local clock time it ends (with the day when
    it is not today)."""
    if seconds < 120:
        amount = f"{math.ceil(seconds):.0f} seconds"
    elif seconds < 2 * 3600:
        amount = f"{math.ceil(seconds / 60):.0f} minutes"
    else:
        hours = seconds / 3600
        amount = f"{hours:.0f} hours" if hours < 48 else f"{hours / 24:.0f} days"
    now = now or datetime.now().astimezone()
    end = now + timedelta(seconds=math.ceil(seconds))
    clock = end.strftime("%H:%M") if end.date() == now.date() else end.strftime("%a %d %b %H:%M")
    return amount, clock


def too_long_to_wait(error: AssistantError, now: datetime | None = None) -> AssistantError:
    """The same fault, told as the real wait the API asks for, not retried."""
    amount, clock = describe_wait(error.retry_after or 0.0, now)
    head = error.message.split(" Try again", 1)[0]
    return AssistantError(error.kind, f"{head} The API asks to wait {amount}; try again after {clock}.",
                          retryable=False, retry_after=error.retry_after)


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


TIMEOUT_MESSAGES = {
    "connect": "Could not connect to the Anthropic API within {s}. Check your network connection (or proxy) "
               "and send your message again.",
    "first_byte": "The Anthropic API did not answer within {s}. Check your network, or the API's status at "
                  "status.anthropic.com, and send your message again.",
    "stall": "The Anthropic API stopped sending the reply: nothing came for {s}. Send your message again.",
    "request": "The reply took longer than {s}, the most this app waits for one reply, and was stopped. "
               "Ask for a shorter answer, or split the task.",
}


def _duration(seconds: float) -> str:
    return f"{seconds:g} s" if seconds < 120 else f"{seconds / 60:.0f} minutes"


def _seconds(exc) -> str:
    """The connect timeout the failed request had, as "10 s" (from the request's timeout extension)."""
    request = getattr(exc, "request", None)
    timeout = (getattr(request, "extensions", None) or {}).get("timeout") or {}
    value = timeout.get("connect")
    return _duration(value) if isinstance(value, int | float) else "the time allowed"


def classify(exc: BaseException, model: str) -> AssistantError:
    """An SDK exception (or a stream's error event, or a ReplyTimeout) as an AssistantError."""
    import anthropic

    if isinstance(exc, ReplyTimeout):
        # a request that got no answer is worth one more try; a reply over its overall bound is not
        return AssistantError("timeout", TIMEOUT_MESSAGES[exc.phase].format(s=_duration(exc.seconds)),
                              retryable=exc.phase != "request")
    detail = _api_message(exc)
    transport = type(exc).__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "httpcore2", "h11")
    cause = exc.__cause__ if isinstance(exc, anthropic.APITimeoutError) else exc
    if type(cause).__name__ == "ConnectTimeout":
        # the SDK's own connect timeout (the same figure as the loop's): one kind, one message
        return AssistantError("timeout", TIMEOUT_MESSAGES["connect"].format(s=_seconds(exc)), retryable=True)
    if isinstance(exc, anthropic.APITimeoutError) or transport and type(exc).__name__.endswith("Timeout"):
        return AssistantError("timeout", "The Anthropic API stopped answering in the middle of a request. Check "
                                         "your network and send your message again.", retryable=True)
    if isinstance(exc, ConnectionError | TimeoutError) or transport:
        # a socket closed mid-stream surfaces as the HTTP library's own error, not the SDK's
        return AssistantError("network", "The connection to the Anthropic API was lost in the middle of a reply. "
                                         "Check your network and send your message again.", retryable=True)
    if isinstance(exc, anthropic.APIConnectionError):
        return AssistantError("network", "The connection to the Anthropic API was lost. Check your network "
                                         "and send your message again.", retryable=True)
    status = getattr(exc, "status_code", None)
    kind = _error_type(exc)
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    may_retry = headers.get("x-should-retry") != "false"  # the API's own word wins
    if status == 401 or kind == "authentication_error":
        return AssistantError("auth", "The Anthropic API refused the API key (401). Check the key in Settings.")
    if status == 403 or kind == "permission_error":
        return AssistantError("permission", f"This API key may not use {model} (403: {detail}). Choose another "
                                            "model in Settings or check the key's permissions.")
    if status == 429 or kind == "rate_limit_error":
        wait = _retry_after(response)
        when = f" in {wait:.0f} s" if wait is not None else " in a moment"
        return AssistantError("rate_limit", f"The Anthropic API is rate limiting this key (429). Try again{when}.",
                              retryable=may_retry, retry_after=wait)
    if status == 529 or kind == "overloaded_error":
        return AssistantError("overloaded", "Claude is overloaded right now (529). Try again in a minute.",
                              retryable=may_retry, retry_after=_retry_after(response))
    if (status == 400 or kind == "invalid_request_error") and "prompt is too long" in detail.lower():
        return AssistantError("prompt_too_long", "This conversation is too long for the model to read at once "
                                                 f"(the API said: {detail}).")
    if status == 400 or kind == "invalid_request_error":
        return AssistantError("bad_request", f"The Anthropic API rejected the request (400): {detail}")
    if isinstance(status, int) and status >= 500 or kind == "api_error":
        return AssistantError("server", f"The Anthropic API had an internal error ({status or 'stream'}). "
                                        "Try again.", retryable=may_retry, retry_after=_retry_after(response))
    if isinstance(exc, anthropic.APIError):
        return AssistantError("stream", f"The reply from the Anthropic API broke off: {detail}", retryable=True)
    return AssistantError("stream", f"Unexpected problem talking to the model: {type(exc).__name__}: {detail}")


def stop_reason_error(reason: str, continued: int = 0) -> AssistantError:
    """A reply that ended for another reason than finishing its turn or calling tools."""
    if reason == "refusal":
        return AssistantError("refusal", "Claude declined to answer this request, so its reply was not kept and "
                                         "your message was taken out of the conversation. Rephrase the request, "
                                         "or ask about a different part of the document. Changes Claude proposed "
                                         "before declining stay in the document.")
    if reason == "max_tokens":
        return AssistantError("max_tokens", "The reply reached the output limit and was cut off. Ask Claude to "
                                            "continue, or to answer more briefly.")
    if reason == "model_context_window_exceeded":
        return AssistantError("context_window", "Claude's reply filled the model's context window and was cut "
                                                "off; a tool call it had started was not run. Older tool results "
                                                "will be shortened to make room: send a message to continue.")
    if reason == "pause_turn":
        return AssistantError("pause_turn", f"Claude paused this long turn again after {continued} "
                                            "continuations, the most this app makes on its own. Send a message "
                                            "(for example \"continue\") to let it go on.")
    return AssistantError("stop_reason", f"Claude's reply ended for a reason this app does not know "
                                         f"({reason}). Send a message to continue.")
