"""The model loop (no Qt): the anthropic client, streaming, tool dispatch, prompts and settings."""

from .faults import AssistantError
from .loop import ModelLoop, ToolCall, TurnListener, TurnResult
from .pricing import Usage
from .prompts import QUICK_ACTIONS, SYSTEM_PROMPT
from .settings import AssistantSettings, load_settings, save_preferences, store_api_key

__all__ = ["AssistantError", "AssistantSettings", "ModelLoop", "QUICK_ACTIONS", "SYSTEM_PROMPT", "ToolCall",
           "TurnListener", "TurnResult", "Usage", "load_settings", "save_preferences", "store_api_key"]
