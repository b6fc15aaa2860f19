"""Components: the parts an `Actor` or `Item` is built from."""
