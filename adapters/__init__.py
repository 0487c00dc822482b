"""Thin platform edges: turn platform events into `IncomingMessage`s and render replies back."""
