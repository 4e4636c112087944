"""The prompt mixture: labels drawn by the registry's weights, and the prompt files and datasets made from them."""
