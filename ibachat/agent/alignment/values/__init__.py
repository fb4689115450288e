"""The readers behind ``alignment/request_values.py``, one module per kind of value; ``request_values`` runs
them in order and is what the rest of the agent imports."""
