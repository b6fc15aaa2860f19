"""Start-up and the window: the command line, the tile sheets and images
(`assets`, `icon`, the menu's picture `title`), the window's size and place
(`display`, `display_area`), the options and palettes, screenshots, what the
game says when something fails (`error_report`, `windowed` for the downloads
that print nothing); the window as a front end (`front_end`); and the main loop
(`loop`), on any front end."""
