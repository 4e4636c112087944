"""Publishing environment plugins to the Hugging Face Hub, and installing them from it.

A release is a dataset repository tagged `v{version}` holding: the plugin's wheel, its registry
fragment, a Parquet sample of tasks (prompts and labels only) for the dataset viewer, a card
whose YAML metadata lists environments and verifiers, and `rlhub-manifest.json` with the
sha256 of every file. Installing verifies every file against the manifest and the manifest
against the hash recorded at publish time, and asks for explicit trust before running pip.
"""

MANIFEST = "rlhub-manifest.json"
TAG = "rl-environment"
