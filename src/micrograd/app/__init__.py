"""The applications built on the library: training a classifier (train, plot), the `micrograd`
command (cli) and the playground's local server (playground)."""
