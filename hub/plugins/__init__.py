"""The plugin system: hook specifications, the plugin manager, what plugins register, the built-in examples."""
