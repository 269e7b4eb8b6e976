"""Where users already work: each module meets one outside tool (pandas, Ray Data, OpenTelemetry, ...).

Each imports its optional dependency itself, with an error that names the extra to install.
"""
