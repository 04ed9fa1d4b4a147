"""Studica navX IMUs through robotpy-navx (imported only when a navX is configured)."""
