"""Local stand-ins for Claude on Amazon Bedrock and on Google Vertex AI, over a real socket of 127.0.0.1.

They take the scripted steps of fake_messages_api (Reply, HttpError, StreamError, Drop, Silent,
HeadersOnly, Pings) and answer them on each cloud's own route, in its own framing, so the anthropic
SDK's AnthropicBedrock and AnthropicVertex clients meet what they would meet in the cloud:

* ``FakeBedrock``: POST /model/{model id}/invoke-with-response-stream, signed with AWS SigV4
  (``signature_ok`` checks it against the credentials the test set). The reply is an AWS event
  stream (application/vnd.amazon.eventstream): binary frames, each with a CRC'd prelude, typed
  headers and a CRC over the whole; an event frame ``chunk`` carries one Messages API event,
  base64-encoded in its JSON payload. A StreamError ends in an exception frame, as Bedrock's
  throttlingException does; an HTTP error is Bedrock's {"message": ...} body.
* ``FakeVertex``: POST /v1/projects/{project}/locations/{region}/publishers/anthropic/models/
  {model}:streamRawPredict with a bearer token; the reply is the Messages API's own SSE. POST /token
  is an OAuth token endpoint, so a service-account key file whose token_uri points here lets
  google-auth's Application Default Credentials refresh without leaving this machine. HTTP errors
  are Google's {"error": {"code", "message", "status"}} body.

The servers are FakeMessagesAPI instances whose request handler is swapped for the cloud's one.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from fake_messages_api import (
    FakeMessagesAPI,
    Request,
)
from fake_messages_api import _Handler as MessagesHandler
from fake_messages_api import _new_id as new_id

BEDROCK_ROUTE = re.compile(r"^/model/(?P<model>[^/]+)/invoke-with-response-stream$")
VERTEX_ROUTE = re.compile(r"^/v1/projects/(?P<project>[^/]+)/locations/(?P<region>[^/]+)/publishers/anthropic/"
                          r"models/(?P<model>[^/:]+):streamRawPredict$")
TOKEN_PATH = "/token"
ACCESS_TOKEN = "ya29.fake-vertex-token"


def event_stream_frame(headers: dict[str, str], payload: bytes) -> bytes:
    """One message of the AWS event-stream encoding: total and header lengths with their CRC32, the
    headers (name, type 7 = string, value), the payload, and a CRC32 of everything before it."""
    head = b"".join(bytes([len(name)]) + name.encode() + b"\x07" + struct.pack(">H", len(value)) + value.encode()
                    for name, value in headers.items())
    prelude = struct.pack(">II", 12 + len(head) + len(payload) + 4, len(head))
    message = prelude + struct.pack(">I", zlib.crc32(prelude)) + head + payload
    return message + struct.pack(">I", zlib.crc32(message))


class _CloudHandler(MessagesHandler):
    """Route by the cloud's path; everything after the route is the Messages fake's own sending."""

    route: re.Pattern

    NAME = "fake cloud"

    def _routed(self, request) -> bool:
        return self.command == "POST" and self.route.match(unquote(urlsplit(self.path).path)) is not None

    def _side_route(self, request) -> bool:
        if self.command == "POST" and urlsplit(self.path).path == TOKEN_PATH:
            self.server.api._take(request, False)
            self._token(request)
            return True
        return False

    def _cache_split(self, request) -> dict[str, int]:
        return {}  # no prompt cache on these fakes

    def _json(self, status: int, data: dict, headers: dict[str, str] | None = None) -> None:
        body = json.dumps(data).encode()
        self.send_response(status)
        for name, value in {"content-type": "application/json", "content-length": str(len(body)),
                            **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _token(self, request: Request) -> None:
        self._json(404, {"error": "not_found"})


class _BedrockHandler(_CloudHandler):
    route = BEDROCK_ROUTE

    def _send_error(self, status: int, error_type: str, message: str, headers: dict[str, str] | None) -> None:
        self._json(status, {"message": message}, {"x-amzn-errortype": f"{error_type}:http://internal.amazon.com/",
                                                  "x-amzn-requestid": new_id("req-"), **(headers or {})})

    def _sse_headers(self) -> None:
        self.send_response(200)
        for name, value in (("content-type", "application/vnd.amazon.eventstream"), ("transfer-encoding", "chunked"),
                            ("x-amzn-requestid", new_id("req-"))):
            self.send_header(name, value)
        self.end_headers()

    def _event(self, name: str, payload: dict[str, Any]) -> None:
        if name == "error":  # a StreamError: Bedrock ends the stream with an exception frame
            error = payload["error"]
            data = event_stream_frame({":exception-type": error["type"], ":content-type": "application/json",
                                       ":message-type": "exception"}, json.dumps({"message": error["message"]}).encode())
        else:
            chunk = base64.b64encode(json.dumps(payload, ensure_ascii=False).encode()).decode()
            data = event_stream_frame({":event-type": "chunk", ":content-type": "application/json",
                                       ":message-type": "event"}, json.dumps({"bytes": chunk}).encode())
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))


class _VertexHandler(_CloudHandler):
    route = VERTEX_ROUTE

    def _send_error(self, status: int, error_type: str, message: str, headers: dict[str, str] | None) -> None:
        self._json(status, {"error": {"code": status, "message": message, "status": error_type.upper()}}, headers)

    def _token(self, request: Request) -> None:
        """google-auth's service-account refresh: a JWT assertion in, a bearer token out."""
        form = parse_qs(request.raw.decode())
        request.json = {key: values[0] for key, values in form.items()}
        request.outcome = "complete"
        self._json(200, {"access_token": ACCESS_TOKEN, "expires_in": 3600, "token_type": "Bearer"})


class FakeBedrock(FakeMessagesAPI):
    def __init__(self) -> None:
        super().__init__()
        self._server.RequestHandlerClass = _BedrockHandler


class FakeVertex(FakeMessagesAPI):
    def __init__(self) -> None:
        super().__init__()
        self._server.RequestHandlerClass = _VertexHandler

    @property
    def token_uri(self) -> str:
        return self.base_url + TOKEN_PATH


def signature_ok(request: Request, access_key: str, secret_key: str, region: str) -> bool:
    """Whether the request carries a valid AWS SigV4 signature of these credentials for Bedrock in
    ``region``: the signature is computed again from the headers it says it signed and the body."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials

    found = re.fullmatch(r"AWS4-HMAC-SHA256 Credential=(?P<key>[^/]+)/\d{8}/(?P<region>[^/]+)/bedrock/aws4_request, "
                         r"SignedHeaders=(?P<signed>[^,]+), Signature=(?P<signature>[0-9a-f]{64})",
                         request.headers.get("authorization", ""))
    if not found or found["key"] != access_key or found["region"] != region:
        return False
    signed = {name: request.headers.get(name, "") for name in found["signed"].split(";")}
    aws = AWSRequest(method=request.method, url=f"http://{signed['host']}{request.path}", headers=signed,
                     data=request.raw)
    aws.context["timestamp"] = request.headers["x-amz-date"]
    signer = SigV4Auth(Credentials(access_key, secret_key), "bedrock", region)
    expected = signer.signature(signer.string_to_sign(aws, signer.canonical_request(aws)), aws)
    return expected == found["signature"]
