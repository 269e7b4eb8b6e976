"""Where users already work: each module meets one outside tool and imports its own optional
dependency, with an error that names the extra to install (``pandas`` and Hugging Face datasets,
Ray Data, ``pytest_plugin`` for pytest, ...)."""
