"""Where Claude is reached: Anthropic's own API, Amazon Bedrock or Google Vertex AI.

Each is the anthropic SDK's own client (Anthropic, AnthropicBedrock, AnthropicVertex), so streaming,
tools, deadlines and retries are the same everywhere; what differs is the client, where its
credentials come from and the name its errors give. The clouds' credentials are never stored by
this app: Bedrock signs with whatever the AWS chain finds (AWS_ACCESS_KEY_ID and friends, AWS_PROFILE,
an SSO login; or a Bedrock API key in AWS_BEARER_TOKEN_BEDROCK), Vertex uses Google's Application
Default Credentials. Both need libraries the app does not require (the optional extra
``folio-desktop[cloud]``): missing_package says which, before any request is made.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass

ANTHROPIC = "anthropic"
BEDROCK = "bedrock"
VERTEX = "vertex"
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"


@dataclass(frozen=True)
class Provider:
    id: str
    title: str  # the settings dialog's choice
    name: str  # in a sentence: "Could not connect to {name}"
    base_url_env: str  # the SDK's own variable for the endpoint
    region_envs: tuple[str, ...]  # where the SDK looks for a region when the settings give none
    modules: tuple[tuple[str, str], ...]  # (module, pip package) the client imports on its first request
    extra: str  # the anthropic SDK's extra that installs those packages
    status: str  # where to look when it does not answer


PROVIDERS = {p.id: p for p in (
    Provider(ANTHROPIC, "Anthropic", "the Anthropic API", "ANTHROPIC_BASE_URL", (), (), "",
             "the API's status at status.anthropic.com"),
    Provider(BEDROCK, "Amazon Bedrock", "Amazon Bedrock", "ANTHROPIC_BEDROCK_BASE_URL",
             ("AWS_REGION", "AWS_DEFAULT_REGION"), (("boto3", "boto3"), ("botocore", "botocore")), "bedrock",
             "the AWS Health Dashboard"),
    Provider(VERTEX, "Google Vertex AI", "Google Vertex AI", "ANTHROPIC_VERTEX_BASE_URL", ("CLOUD_ML_REGION",),
             (("google.auth", "google-auth"), ("requests", "requests")), "vertex",
             "the Google Cloud status dashboard"),
)}


def provider_for(provider_id: str | None) -> Provider:
    return PROVIDERS.get(provider_id or ANTHROPIC, PROVIDERS[ANTHROPIC])


def missing_package(provider: Provider) -> str | None:
    """The pip package the provider's client needs and this Python lacks, or None."""
    for module, package in provider.modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent package missing, or a module blanked out
            found = False
        if not found:
            return package
    return None


def region_of(settings, environ=None) -> str | None:
    """The region requests go to: the settings', else the one the provider's SDK would read from the
    environment (for Bedrock also the AWS profile's, which boto3 reads from its config file)."""
    environ = os.environ if environ is None else environ
    if settings.region:
        return settings.region
    provider = provider_for(settings.provider)
    for name in provider.region_envs:
        if environ.get(name):
            return environ[name]
    if provider.id == BEDROCK and missing_package(provider) is None:
        import boto3

        try:
            return boto3.Session(profile_name=environ.get("AWS_PROFILE") or None).region_name
        except Exception:  # noqa: BLE001 - an unknown profile: botocore's own error comes at the request
            return None
    return None


def make_sdk_client(settings, timeouts, http_client):
    """The SDK client for the chosen provider. No retries of the SDK's own: the loop's are visible
    in the panel and interruptible by Stop."""
    import anthropic

    common = {"base_url": settings.base_url or None, "max_retries": 0, "timeout": timeouts.for_sdk(),
              "http_client": http_client}
    if settings.provider == BEDROCK:
        return anthropic.AnthropicBedrock(aws_region=settings.region or None, **common)
    if settings.provider == VERTEX:
        where = {"region": settings.region} if settings.region else {}
        project = settings.project or os.environ.get("ANTHROPIC_VERTEX_PROJECT_ID")
        if not project:  # the SDK wants the project before it loads credentials: take the ADC's own
            import google.auth

            where["credentials"], project = google.auth.default(scopes=[CLOUD_PLATFORM_SCOPE])
        if project:
            where["project_id"] = project
        return anthropic.AnthropicVertex(**where, **common)
    return anthropic.Anthropic(api_key=settings.api_key, **common)
