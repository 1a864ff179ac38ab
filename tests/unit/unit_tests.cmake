# One line per library with unit tests (sources in tests/unit/<name>/).
