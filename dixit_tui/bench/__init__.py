"""Benchmarks and long-running checks that drive a real server (`python -m dixit_tui.bench.killtest`)."""
