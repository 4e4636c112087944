"""The verifier checks every environment must pass, and the pytest plugin that collects them."""
