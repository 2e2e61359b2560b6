"""One server, many processes: this process's node and the broker between processes."""
