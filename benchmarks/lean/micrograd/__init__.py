"""The pure-Python floor: a lean engine with micrograd 0.1.0's API, for benchmarks/bench.py only."""
