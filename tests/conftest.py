"""Test configuration shared by the whole suite."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Hypothesis profiles: "default" for the everyday run (derandomized, so a CI run is
# reproducible), "thorough" for `nox -s slow` (random, ten times more examples).
settings.register_profile(
    "default",
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("ASSAY_HYPOTHESIS_PROFILE", "default"))
