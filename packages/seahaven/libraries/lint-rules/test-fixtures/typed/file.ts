// Type-aware rule tests lint virtual contents under this name.
