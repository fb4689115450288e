"""Screens of the chat app: memory browser and small dialogs."""
