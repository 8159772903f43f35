"""Ways to start servers and wrk: on this host (local) or in containers (docker)."""
