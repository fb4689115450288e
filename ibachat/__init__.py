"""ibachat: a terminal assistant with a persistent personal memory that acts on what it knows."""

__version__ = "0.1.0"
