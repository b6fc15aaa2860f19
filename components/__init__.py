"""Components: the parts an `Actor` or `Item` is built from (AI, fighter, inventory,
equipment, level, and what items do when used or worn)."""
