"""The run's TLS: its throwaway CA and server certificate."""
