"""The domain model: tasks and labels, environments and episodes, verifiers and verdicts, errors."""
