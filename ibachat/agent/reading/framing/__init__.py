"""The parts of ``reading/frame.py``, one module per kind of span; ``frame.read_frame`` puts them together
and ``frame`` is what the rest of the agent imports."""
