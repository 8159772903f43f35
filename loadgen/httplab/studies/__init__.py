"""Studies of the lab's own method on this host: make pairing-study."""
