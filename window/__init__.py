"""Start-up and the window: the command line, the tile sheets and images
(`assets`, `icon`), the window's size and place (`display`, `display_area`),
the options and palettes, screenshots, and what the game says when something
fails (`error_report`, `windowed` for the downloads that print nothing)."""
