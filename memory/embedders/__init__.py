"""Embedders: one small interface, :class:`memory.embedders.base.Embedder` (``embed_batch``)."""
