"""Claude through Amazon Bedrock and Google Vertex AI: the model loop with the SDK's own
AnthropicBedrock and AnthropicVertex clients against local fakes of each cloud over a real socket
(tests/fake_cloud_endpoints.py). Credentials come from each provider's usual chain: AWS variables
for Bedrock (the fake checks the SigV4 signature), a service-account key file as Google's
Application Default Credentials for Vertex (its token endpoint is the fake's, so nothing leaves the
machine)."""

from __future__ import annotations

import base64
import json
import sys
import time

import pytest
from conftest import CORPUS
from fake_cloud_endpoints import ACCESS_TOKEN, FakeBedrock, FakeVertex, signature_ok
from fake_messages_api import HttpError, Pings, Reply, StreamError, Text, ToolUse, assert_valid_conversation

from folio_desktop.agents import create_reviewer_bridge
from folio_desktop.assistant import AssistantSettings, ModelLoop, TurnListener
from folio_desktop.assistant.loop import worst_case_silent_s
from folio_desktop.assistant.settings import load_settings, save_preferences
from folio_desktop.assistant.tooling import anthropic_tools_for, tool_runner
from folio_desktop.assistant.transport import Timeouts
from folio_desktop.docx import DocxReviewer

PILOT = CORPUS / "contract_commonpaper_pilot_agreement.docx"
BEDROCK_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
VERTEX_MODEL = "claude-sonnet-4-5@20250929"
AWS_KEY, AWS_SECRET = "AKIDFOLIOTEST", "folio-test-secret"
pytestmark = pytest.mark.timeout(60)


class Recorder(TurnListener):
    def __init__(self):
        self.text: list[str] = []
        self.notices: list[str] = []
        self.finished: list[tuple[str, dict]] = []

    def text_delta(self, text):
        self.text.append(text)

    def notice(self, message):
        self.notices.append(message)

    def tool_finished(self, call_id, name, envelope):
        self.finished.append((name, envelope))


@pytest.fixture
def aws(monkeypatch, tmp_path):
    """AWS credentials in the environment only: no profile, config file or instance metadata."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_BEARER_TOKEN_BEDROCK",
                 "ANTHROPIC_BEDROCK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "aws-empty").write_text("")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "aws-empty"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "aws-empty"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", AWS_KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", AWS_SECRET)
    from anthropic.lib.aws._auth import _get_session

    _get_session.cache_clear()  # the SDK keeps one boto3 session per argument set: start from this environment
    yield
    _get_session.cache_clear()


@pytest.fixture
def bedrock():
    with FakeBedrock() as server:
        yield server


@pytest.fixture
def vertex(monkeypatch, tmp_path):
    """A fake Vertex AI, and Google ADC from a service-account key file whose token_uri is the fake's."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    with FakeVertex() as server:
        info = {"type": "service_account", "project_id": "adc-project", "private_key_id": "k1", "private_key": pem,
                "client_email": "reviewer@adc-project.iam.gserviceaccount.com", "client_id": "1",
                "token_uri": server.token_uri}
        (tmp_path / "adc.json").write_text(json.dumps(info))
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "adc.json"))
        for name in ("ANTHROPIC_VERTEX_PROJECT_ID", "CLOUD_ML_REGION", "ANTHROPIC_VERTEX_BASE_URL"):
            monkeypatch.delenv(name, raising=False)
        yield server


def make_loop(settings: AssistantSettings, timeouts: Timeouts | None = None) -> ModelLoop:
    bridge = create_reviewer_bridge(DocxReviewer.open(PILOT, author="Claude"))
    return ModelLoop(settings, tool_runner(bridge), anthropic_tools_for(bridge), timeouts=timeouts or Timeouts())


def bedrock_settings(server, **kwargs) -> AssistantSettings:
    return AssistantSettings(provider="bedrock", region="eu-central-1", model=BEDROCK_MODEL,
                             base_url=server.base_url, **kwargs)


def vertex_settings(server, **kwargs) -> AssistantSettings:
    return AssistantSettings(provider="vertex", region="us-east5", project="firm-project", model=VERTEX_MODEL,
                             base_url=server.base_url + "/v1", **kwargs)


# -- Bedrock ----------------------------------------------------------------------------------------------

def test_a_turn_with_a_tool_call_through_bedrock_is_signed_with_the_aws_credentials(aws, bedrock):
    find = ToolUse("find_text", {"query": "Pilot"})
    bedrock.script(Reply([Text("Let me look."), find], stop_reason="tool_use"), Reply([Text("Found it.")]))
    loop = make_loop(bedrock_settings(bedrock))
    rec = Recorder()
    result = loop.run_turn("Where is the pilot defined?", rec)
    assert result.status == "completed", result.error
    assert result.text == "Let me look.Found it."
    assert [c.name for c in result.tool_calls] == ["find_text"] and result.tool_calls[0].envelope["ok"]
    first, second = bedrock.requests
    for request in (first, second):
        assert request.path == f"/model/{BEDROCK_MODEL}/invoke-with-response-stream"
        assert signature_ok(request, AWS_KEY, AWS_SECRET, "eu-central-1")
        assert request.json["anthropic_version"] and "model" not in request.json
        assert {t["name"] for t in request.json["tools"]} >= {"find_text", "suggest_changes"}
    assert not signature_ok(first, AWS_KEY, "another-secret", "eu-central-1")
    answered = second.json["messages"]
    assert_valid_conversation(answered)
    assert answered[-1]["content"][0]["tool_use_id"] == find.id


def test_bedrock_faults_are_retried_and_named_after_bedrock(aws, bedrock):
    bedrock.script(StreamError("throttlingException", "Too many requests, please wait.", after_events=1),
                   Reply([Text("Now it works.")]))
    loop = make_loop(bedrock_settings(bedrock))
    rec = Recorder()
    result = loop.run_turn("Summarize.", rec)
    assert result.status == "completed" and result.text == "Now it works."
    assert rec.notices == ["Amazon Bedrock is rate limiting this account (429). Try again in a moment. "
                           "Retrying in 1 s (attempt 2 of 3)."]
    bedrock.script(HttpError(403, "AccessDeniedException", "You don't have access to the model with the specified "
                                                           "model ID."))
    denied = loop.run_turn("Again.", Recorder())
    assert denied.status == "failed" and denied.error.kind == "permission"
    assert denied.error.message.startswith(f"Your Amazon Bedrock account may not use {BEDROCK_MODEL} (403: You don't")


def test_a_pings_only_bedrock_stream_ends_within_the_answer_budget(aws, bedrock):
    timeouts = Timeouts(connect=0.5, first_byte=2.0, stall=2.0, answer=4.5)
    bedrock.script(Pings(interval=0.05), Pings(interval=0.05))
    loop = make_loop(bedrock_settings(bedrock), timeouts)
    started = time.monotonic()
    result = loop.run_turn("Summarize.", Recorder())
    elapsed = time.monotonic() - started
    assert result.status == "failed" and result.error.kind == "timeout"
    assert result.error.message.startswith("Amazon Bedrock sent no reply within 4.5 s")
    assert "AWS Health Dashboard" in result.error.message
    assert len(bedrock.requests) == 2 and elapsed < worst_case_silent_s(timeouts) + 0.5


def test_bedrock_without_aws_credentials_says_where_they_come_from(aws, bedrock, monkeypatch):
    monkeypatch.delenv("AWS_ACCESS_KEY_ID")
    monkeypatch.delenv("AWS_SECRET_ACCESS_KEY")
    result = make_loop(bedrock_settings(bedrock)).run_turn("Hello?", Recorder())
    assert result.status == "failed" and result.error.kind == "auth", result.error
    assert "Amazon Bedrock could not use your AWS credentials" in result.error.message
    assert "AWS_ACCESS_KEY_ID" in result.error.message and bedrock.requests == []


def test_bedrock_without_a_region_asks_for_one_before_sending(aws, bedrock):
    settings = bedrock_settings(bedrock)
    settings.region = None
    result = make_loop(settings).run_turn("Hello?", Recorder())
    assert result.status == "failed" and result.error.kind == "setup"
    assert result.error.message == ("No region is set for Amazon Bedrock. Enter one in Settings (for example "
                                    "us-east-1), or set AWS_REGION or AWS_DEFAULT_REGION.")
    assert bedrock.requests == []


@pytest.mark.parametrize("provider, module, extra", [("bedrock", "boto3", "bedrock"),
                                                     ("vertex", "google.auth", "vertex")])
def test_a_cloud_without_its_package_says_which_to_install(monkeypatch, provider, module, extra):
    monkeypatch.setitem(sys.modules, module, None)  # as if it were not installed: importing it fails
    settings = AssistantSettings(provider=provider, region="us-east-1", project="p", base_url="http://127.0.0.1:9")
    result = make_loop(settings).run_turn("Hello?", Recorder())
    assert result.status == "failed" and result.error.kind == "missing_package"
    assert f'pip install "anthropic[{extra}]"' in result.error.message
    assert module.replace(".", "-") in result.error.message


# -- Vertex AI --------------------------------------------------------------------------------------------

def test_a_turn_through_vertex_uses_application_default_credentials(vertex):
    vertex.script(Reply([Text("Clause 4 caps liability.")]))
    result = make_loop(vertex_settings(vertex)).run_turn("Which clause caps liability?", Recorder())
    assert result.status == "completed", result.error
    assert result.text == "Clause 4 caps liability."
    token, call = vertex.requests
    assert token.path == "/token" and token.json["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    claims = json.loads(base64.urlsafe_b64decode(token.json["assertion"].split(".")[1] + "=="))
    assert claims["iss"] == "reviewer@adc-project.iam.gserviceaccount.com"
    assert call.path == (f"/v1/projects/firm-project/locations/us-east5/publishers/anthropic/models/"
                         f"{VERTEX_MODEL}:streamRawPredict")
    assert call.headers["authorization"] == f"Bearer {ACCESS_TOKEN}"
    assert call.json["anthropic_version"] and call.json["stream"] is True
    assert "model" not in call.json


def test_vertex_takes_its_endpoint_and_project_from_the_environment(vertex, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_VERTEX_BASE_URL", vertex.base_url + "/v1")
    vertex.script(HttpError(429, "resource_exhausted", "Quota exceeded for aiplatform.googleapis.com"),
                  Reply([Text("Done.")]))
    settings = AssistantSettings(provider="vertex", region="europe-west1", model=VERTEX_MODEL)  # ADC's project
    rec = Recorder()
    result = make_loop(settings).run_turn("Summarize.", rec)
    assert result.status == "completed" and result.text == "Done.", result.error
    assert rec.notices[0].startswith("Google Vertex AI is rate limiting this account (429).")
    assert vertex.requests[-1].path.startswith("/v1/projects/adc-project/locations/europe-west1/")


# -- settings -----------------------------------------------------------------------------------------------

def test_the_provider_region_and_project_are_kept_but_no_cloud_credential(tmp_path, monkeypatch, aws):
    monkeypatch.setenv("ANTHROPIC_BEDROCK_BASE_URL", "http://bedrock.invalid")
    settings = load_settings(tmp_path, environ={}, use_keyring=False)
    settings.provider, settings.region, settings.project = "vertex", "us-east5", "firm-project"
    save_preferences(settings)
    again = load_settings(tmp_path, environ={}, use_keyring=False)
    assert (again.provider, again.region, again.project) == ("vertex", "us-east5", "firm-project")
    assert "does not store them" in again.describe_key()
    again.provider = "bedrock"
    assert again.effective_base_url == "http://bedrock.invalid"
    saved = (tmp_path / "settings.json").read_text()
    assert AWS_SECRET not in saved and "apiKey" not in saved


def test_the_settings_dialog_chooses_the_provider(qtbot, tmp_path):
    from folio_desktop.ui.desk.settings_dialog import SettingsDialog

    settings = AssistantSettings(config_dir=tmp_path)
    dialog = SettingsDialog(settings, environ={"AWS_REGION": "eu-west-3"})
    qtbot.addWidget(dialog)
    assert dialog.key_edit.isEnabled() and not dialog.region_edit.isEnabled()
    dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("bedrock"))
    assert not dialog.key_edit.isEnabled() and dialog.region_edit.isEnabled()
    assert not dialog.project_edit.isEnabled() and "AWS_REGION: eu-west-3" in dialog.region_edit.placeholderText()
    assert "AWS credentials" in dialog.key_status.text()
    dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("vertex"))
    assert dialog.project_edit.isEnabled()
    dialog.region_edit.setText("us-east5")
    dialog.project_edit.setText("firm-project")
    dialog.model_combo.setCurrentText(VERTEX_MODEL)
    dialog.apply()
    loaded = load_settings(tmp_path, environ={}, use_keyring=False)
    assert (loaded.provider, loaded.region, loaded.project, loaded.model) == \
        ("vertex", "us-east5", "firm-project", VERTEX_MODEL)
