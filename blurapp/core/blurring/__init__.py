"""A file blurred into a file with one engine, untimed, as `blurapp blur` and `batch` do."""
