"""The program Pulumi runs: its resources and outputs are in infra.py, which the tests import too."""

import infra  # noqa: F401
