// Not even JavaScript:
export function broken( {
