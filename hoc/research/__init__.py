"""Research: running many games (the jitted batch loop, plans, chunks and backends, Parquet folders
and resume) and reading them (statistics, studies, plots, SP curves)."""
