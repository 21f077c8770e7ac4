"""What went wrong talking to the model, in words a lawyer can act on.

The loop turns every SDK exception (and every deadline of transport.Timeouts) into an
AssistantError with a kind (for tests and the panel's styling), a message and, for rate limits and
overload, whether and when a retry makes sense. A stop reason that is not a normal end of turn
(refusal, max_tokens, model_context_window_exceeded, pause_turn) becomes one too, so the panel
shows it for what it is. Every message names where Claude is reached (providers.py): the Anthropic
API, Amazon Bedrock or Google Vertex AI, whose credentials and error codes differ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from .providers import ANTHROPIC, BEDROCK, VERTEX, Provider, missing_package, provider_for, region_of
from .transport import ReplyTimeout

RETRY_WAIT_LIMIT_S = 60.0  # the longest retry-after the loop waits out itself; longer is reported


@dataclass
class AssistantError:
    # no_key | setup | missing_package | auth | permission | not_found | rate_limit | overloaded | server |
    # network | timeout | bad_request | prompt_too_long | stream | refusal | max_tokens | context_window |
    # pause_turn | stop_reason
    kind: str
    message: str
    retryable: bool = False
    retry_after: float | None = None  # seconds, from the response when it says (never capped)


def no_key_error() -> AssistantError:
    return AssistantError("no_key", "No Anthropic API key is set. Add one in Settings, or set the "
                                    "ANTHROPIC_API_KEY environment variable.")


def setup_error(settings, environ=None) -> AssistantError | None:
    """What keeps a turn from being sent at all with these settings (no key, no region, a library
    the provider's client needs), or None."""
    provider = provider_for(settings.provider)
    if provider.id == ANTHROPIC:
        return None if settings.api_key else no_key_error()
    package = missing_package(provider)
    if package:
        return AssistantError("missing_package", f"{provider.name} needs the Python package {package}, which is not "
                                                 f"installed. Install it with: pip install \"anthropic[{provider.extra}]\" "
                                                 "(or folio-desktop[cloud]), then start the app again.")
    if not region_of(settings, environ):
        example = "us-east-1" if provider.id == BEDROCK else "us-east5, or global"
        where = " or ".join(provider.region_envs)
        return AssistantError("setup", f"No region is set for {provider.name}. Enter one in Settings (for example "
                                       f"{example}), or set {where}.")
    return None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def _error_body(exc) -> dict:
    """The error object of an API error's body: Anthropic's {"error": {...}}, Bedrock's {"message": ...},
    or Google's [{"error": {...}}]."""
    body = getattr(exc, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], dict):
        body = body[0]
    if not isinstance(body, dict):
        return {}
    return body["error"] if isinstance(body.get("error"), dict) else body


def _api_message(exc) -> str:
    message = _error_body(exc).get("message")
    return message if isinstance(message, str) else str(getattr(exc, "message", "") or exc)


def _error_type(exc) -> str | None:
    kind = _error_body(exc).get("type")
    return kind if isinstance(kind, str) else None


# the exception frames a Bedrock stream ends with, as the HTTP status the same fault has before a stream
BEDROCK_STREAM_STATUS = {"throttlingexception": 429, "serviceunavailableexception": 529,
                         "internalserverexception": 500, "modelstreamerrorexception": 500,
                         "modeltimeoutexception": 500, "validationexception": 400, "accessdeniedexception": 403}


TIMEOUT_MESSAGES = {
    "connect": "Could not connect to {name} within {s}. Check your network connection (or proxy) "
               "and send your message again.",
    "first_byte": "{Name} did not answer within {s}. Check your network, or {status}, and send your message again.",
    "stall": "{Name} stopped sending the reply: nothing came for {s}. Send your message again.",
    "request": "The reply took longer than {s}, the most this app waits for one reply, and was stopped. "
               "Ask for a shorter answer, or split the task.",
    "answer": "{Name} sent no reply within {s} of your message (every try included), so this app stopped "
              "waiting. Check your network, or {status}, and send your message again.",
}


def timeout_message(phase: str, seconds: str, provider: Provider) -> str:
    return TIMEOUT_MESSAGES[phase].format(s=seconds, name=provider.name, Name=_cap(provider.name),
                                          status=provider.status)


def _duration(seconds: float) -> str:
    return f"{seconds:g} s" if seconds < 120 else f"{seconds / 60:.0f} minutes"


def _seconds(exc) -> str:
    """The connect timeout the failed request had, as "10 s" (from the request's timeout extension)."""
    request = getattr(exc, "request", None)
    timeout = (getattr(request, "extensions", None) or {}).get("timeout") or {}
    value = timeout.get("connect")
    return _duration(value) if isinstance(value, int | float) else "the time allowed"


def _credentials_error(exc: BaseException, provider) -> AssistantError | None:
    """The cloud credential chain failing before the request left (no credentials, an expired
    login, an unknown profile, no project), as the provider's own words for fixing it."""
    module = type(exc).__module__
    text = str(exc)
    if provider.id == BEDROCK and (module.startswith("botocore") or "AWS credentials" in text):
        return AssistantError("auth", f"Amazon Bedrock could not use your AWS credentials ({text}). Set "
                                      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or sign in "
                                      "with the AWS CLI (aws sso login), then send your message again.")
    if provider.id == VERTEX and (module.startswith("google.auth") or "project_id" in text
                                  or "API token" in text):
        return AssistantError("auth", f"Google Vertex AI could not use your Google credentials ({text}). Sign in "
                                      "with gcloud auth application-default login (or set "
                                      "GOOGLE_APPLICATION_CREDENTIALS), check the project in Settings, then send "
                                      "your message again.")
    return None


def classify(exc: BaseException, model: str, provider_id: str | None = None) -> AssistantError:
    """An SDK exception (or a stream's error event, or a ReplyTimeout) as an AssistantError, in the
    words of the provider it came from."""
    import anthropic

    provider = provider_for(provider_id)
    name, cap = provider.name, _cap(provider.name)
    if isinstance(exc, ReplyTimeout):
        # a request that got no answer is worth one more try; a reply over its overall bound is not
        return AssistantError("timeout", timeout_message(exc.phase, _duration(exc.seconds), provider),
                              retryable=exc.phase not in ("request", "answer"))
    if isinstance(exc, ImportError) or type(exc).__name__ == "MissingDependencyError":
        return AssistantError("missing_package", f"{cap} needs a Python package that is not installed ({exc}). "
                                                 f"Install it with: pip install \"anthropic[{provider.extra}]\", "
                                                 "then start the app again.")
    known = _credentials_error(exc, provider) if provider.id != ANTHROPIC else None
    if known is not None:
        return known
    detail = _api_message(exc)
    transport = type(exc).__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "httpcore2", "h11")
    cause = exc.__cause__ if isinstance(exc, anthropic.APITimeoutError) else exc
    if type(cause).__name__ == "ConnectTimeout":
        # the SDK's own connect timeout (the same figure as the loop's): one kind, one message
        return AssistantError("timeout", timeout_message("connect", _seconds(exc), provider), retryable=True)
    if isinstance(exc, anthropic.APITimeoutError) or transport and type(exc).__name__.endswith("Timeout"):
        return AssistantError("timeout", f"{cap} stopped answering in the middle of a request. Check "
                                         "your network and send your message again.", retryable=True)
    if isinstance(exc, ConnectionError | TimeoutError) or transport:
        # a socket closed mid-stream surfaces as the HTTP library's own error, not the SDK's
        return AssistantError("network", f"The connection to {name} was lost in the middle of a reply. "
                                         "Check your network and send your message again.", retryable=True)
    if isinstance(exc, anthropic.APIConnectionError):
        return AssistantError("network", f"The connection to {name} was lost. Check your network "
                                         "and send your message again.", retryable=True)
    status = getattr(exc, "status_code", None)
    kind = _error_type(exc)
    status = BEDROCK_STREAM_STATUS.get((kind or "").lower(), status)
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    may_retry = headers.get("x-should-retry") != "false"  # the API's own word wins
    if status == 401 or kind == "authentication_error":
        if provider.id == ANTHROPIC:
            return AssistantError("auth", "The Anthropic API refused the API key (401). Check the key in Settings.")
        return AssistantError("auth", f"{cap} refused your credentials (401: {detail}). Sign in again, then send "
                                      "your message again.")
    if status == 403 or kind == "permission_error":
        what = "This API key" if provider.id == ANTHROPIC else f"Your {cap} account"
        return AssistantError("permission", f"{what} may not use {model} (403: {detail}). Choose another "
                                            "model in Settings or check the account's permissions.")
    if status == 404 or kind == "not_found_error":
        return AssistantError("not_found", f"{cap} does not know the model {model} (404: {detail}). Check the "
                                           "model id and the region in Settings.")
    if status == 429 or kind == "rate_limit_error":
        wait = _retry_after(response)
        when = f" in {wait:.0f} s" if wait is not None else " in a moment"
        who = "this key" if provider.id == ANTHROPIC else "this account"
        return AssistantError("rate_limit", f"{cap} is rate limiting {who} (429). Try again{when}.",
                              retryable=may_retry, retry_after=wait)
    if status == 529 or kind == "overloaded_error":
        on = "" if provider.id == ANTHROPIC else f" on {name}"
        return AssistantError("overloaded", f"Claude is overloaded right now{on} (529). Try again in a minute.",
                              retryable=may_retry, retry_after=_retry_after(response))
    if (status == 400 or kind == "invalid_request_error") and "prompt is too long" in detail.lower():
        return AssistantError("prompt_too_long", "This conversation is too long for the model to read at once "
                                                 f"(the API said: {detail}).")
    if status == 400 or kind == "invalid_request_error":
        return AssistantError("bad_request", f"{cap} rejected the request (400): {detail}")
    if isinstance(status, int) and status >= 500 or kind == "api_error":
        return AssistantError("server", f"{cap} had an internal error ({status or 'stream'}). "
                                        "Try again.", retryable=may_retry, retry_after=_retry_after(response))
    if isinstance(exc, anthropic.APIError):
        return AssistantError("stream", f"The reply from {name} broke off: {detail}", retryable=True)
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
