"""The reward path: one sample's outcome, substitute rewards, and OpenRLHF's batch contract."""
