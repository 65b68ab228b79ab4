"""The headless JSON-lines protocol (version 1) for bots, scripts and agents: docs/protocol.md."""
