"""Skills as files (`model`), as projections (`projection`), and read back (`stages`)."""
