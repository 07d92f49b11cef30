"""Pack-level analyses: trigger cycles, resource growth and cap stacking (all near-linear)."""
