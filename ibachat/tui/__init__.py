"""The Textual app. Importing this package loads nothing heavy; `ibachat.tui.app` holds the app."""
