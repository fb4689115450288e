"""The parts of ``reading/acts.py``: the words acts are read with, commands, wants and verbless requests;
``acts.read_act`` reads a message with them and ``acts`` is what the rest of the agent imports."""
