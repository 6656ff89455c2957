"""agent_ref: an implementation of conformance protocol v1 in Python, standard library only."""
