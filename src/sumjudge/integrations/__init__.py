"""Optional integrations of sumjudge with other tools; each module stands alone and imports its
own optional dependency (for example ``pytest_plugin`` for pytest)."""
