"""Execution under the plan: routing a message, slot filling, bounded free text, the tools, tool calls and text answers."""
