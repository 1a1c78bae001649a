"""Host-side tools: simulator, deploy, benchmarks (never copied to the device)."""
