/**
 * Limits on the shape of JSON a client sends. Nesting is checked on the raw text, before it is parsed, so that nothing
 * downstream (validation, error messages that quote the input, logging) ever recurses through a hostile document.
 */

/** Deepest nesting of arrays and objects accepted in a frame, body or JSON-RPC request (the outermost value is level 1). */
export const MAX_JSON_DEPTH = 100;

/**
 * Whether `text` nests arrays and objects deeper than `max` levels. Scans the text once, without recursion, skipping
 * string contents; text that is not JSON gives `false` (its parse error is reported instead).
 * @example
 * jsonTooDeep('[[[1]]]', 2); // true
 * jsonTooDeep('{"a": "[[[["}', 2); // false
 */
export function jsonTooDeep(text: string, max: number = MAX_JSON_DEPTH): boolean {
  const n = text.length;
  // Every level takes two characters at least.
  if (n <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Jump to the closing quote: one not preceded by an odd number of backslashes.
      for (;;) {
        const q = text.indexOf('"', i + 1);
        if (q === -1) return false;
        let slashes = 0;
        while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
        i = q;
        if ((slashes & 1) === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The message for a document nested too deeply; `what` names it (`frame`, `body`, `request`). */
export function tooDeepMessage(what: string, max: number = MAX_JSON_DEPTH): string {
  return `the ${what} nests arrays and objects deeper than ${max} levels, this server's limit; send flatter JSON`;
}
