"""Widgets of the chat app: messages, input, plan view, tool cards, sessions, status."""
