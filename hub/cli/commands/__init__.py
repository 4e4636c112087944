"""CLI commands beyond the core ones; each module implements `rlhub_register_commands`."""
