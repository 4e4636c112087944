"""Glue for trainers: OpenRLHF (reward file, agent, `rlhub train`), TRL and verl adapters, turn formats."""
