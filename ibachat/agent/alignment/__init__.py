"""Broad Thinking & Deep Alignment: conflict resolution, the alignment plan, grounding into tool schemas."""
