"""curl and wget over the sandbox's network policy (off unless the embedder allows URLs)."""
