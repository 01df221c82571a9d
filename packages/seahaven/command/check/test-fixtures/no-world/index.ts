// Exports something, but no world.
export const settings = { name: 'no_world', tools: [] };
