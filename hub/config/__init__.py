"""Configuration: registry.yaml (schema, line-numbered YAML), the catalog it resolves to, dataset environments."""
