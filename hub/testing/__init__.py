"""Test support for rlhub and plugin authors: the hostile-program suite, host-side bait, sandbox probes."""
