"""The database: models of the tables, migrations, the writer thread, leases and per-address counts."""
