"""Token usage and its estimated cost (USD per million tokens, Anthropic's published list prices)."""

from __future__ import annotations

from dataclasses import dataclass

from .models import by_model

# model id prefix -> (input, output, 5-minute cache write, cache read) in USD per million tokens
PRICES = {
    "claude-sonnet-5-5": (2.0, 10.0, 2.5, 0.2),
    "claude-sonnet-5": (2.0, 10.0, 2.5, 0.2),
    "claude-opus-5-5": (4.0, 20.0, 5.0, 0.4),
    "claude-opus-5": (5.0, 25.0, 6.25, 0.5),
    "claude-sonnet-4-6": (3.0, 15.0, 3.75, 0.3),
    "claude-sonnet-4-5": (3.0, 15.0, 3.75, 0.3),
    "claude-haiku-4-5": (1.0, 5.0, 1.25, 0.1),
}


@dataclass
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cache_creation_input_tokens += other.cache_creation_input_tokens
        self.cache_read_input_tokens += other.cache_read_input_tokens

    @classmethod
    def from_api(cls, usage) -> Usage:
        def get(name):
            value = getattr(usage, name, None) if usage is not None else None
            return value if isinstance(value, int) else 0

        return cls(get("input_tokens"), get("output_tokens"), get("cache_creation_input_tokens"),
                   get("cache_read_input_tokens"))

    def cost(self, model: str) -> float | None:
        """Estimated USD, or None for a model without a known price."""
        price = price_for(model)
        if price is None:
            return None
        inp, out, write, read = price
        return (self.input_tokens * inp + self.output_tokens * out + self.cache_creation_input_tokens * write
                + self.cache_read_input_tokens * read) / 1_000_000

    def describe(self, model: str) -> str:
        tokens = f"{self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens:,} in"
        tokens += f" ({self.cache_read_input_tokens:,} cached), {self.output_tokens:,} out"
        cost = self.cost(model)
        return f"{tokens}, ~${cost:.4f}" if cost is not None else f"{tokens} (no price known for {model})"


def price_for(model: str):
    """The price of the model (Bedrock's and Vertex's ids too), or None when it is not known."""
    return by_model(PRICES, model)
