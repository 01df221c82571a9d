/**
 * A small SQLite tokenizer and the scan for time or randomness in an expression, used by the SQL guard (refused
 * statements) and the schema check.
 */

export interface Token {
  kind: 'word' | 'string' | 'ident' | 'number' | 'punct';
  /** Upper-cased for words, unquoted for strings and identifiers. */
  value: string;
  /** As written (unquoted for strings and identifiers). */
  raw: string;
  /** Offset in the SQL text. */
  at: number;
}

/** Tokens of SQL text; comments and whitespace dropped. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      let j = i + 1;
      let value = '';
      for (; j < sql.length; j++) {
        if (sql[j] === close) {
          if (close !== ']' && sql[j + 1] === close) {
            value += close;
            j++;
          } else break;
        } else value += sql[j];
      }
      out.push({ kind: c === "'" ? 'string' : 'ident', value, raw: value, at: i });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))!;
      out.push({ kind: 'word', value: m[0].toUpperCase(), raw: m[0], at: i });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][0-9A-Za-z_.]*/.exec(sql.slice(i))!;
      out.push({ kind: 'number', value: m[0], raw: m[0], at: i });
      i += m[0].length;
    } else {
      out.push({ kind: 'punct', value: c, raw: c, at: i });
      i++;
    }
  }
  return out;
}

/** The index of the `)` closing the `(` at `open` (or the last token when unbalanced). */
export function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (tokens[i].value === '(' && tokens[i].kind === 'punct') depth++;
    else if (tokens[i].value === ')' && tokens[i].kind === 'punct' && --depth === 0) return i;
  }
  return tokens.length - 1;
}

/** Argument token ranges `[from, to)` of the call whose `(` is at `open`. */
export function callArguments(tokens: Token[], open: number): [number, number][] {
  const close = closing(tokens, open);
  const args: [number, number][] = [];
  let start = open + 1;
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const t = tokens[i];
    if (t.kind !== 'punct') continue;
    if (t.value === '(') depth++;
    else if (t.value === ')') depth--;
    else if (t.value === ',' && depth === 0) {
      args.push([start, i]);
      start = i + 1;
    }
  }
  if (close > open + 1) args.push([start, close]);
  return args;
}

const DATE_FUNCTIONS = new Set(['DATE', 'TIME', 'DATETIME', 'JULIANDAY', 'UNIXEPOCH', 'STRFTIME']);
const CLOCK_KEYWORDS = new Set(['CURRENT_TIMESTAMP', 'CURRENT_DATE', 'CURRENT_TIME']);

function isCall(tokens: Token[], i: number): boolean {
  return (
    tokens[i].kind === 'word' && tokens[i + 1]?.kind === 'punct' && tokens[i + 1].value === '('
  );
}

/** Date function calls in a range, with their argument ranges: `[name index, args]`. */
export function dateCalls(
  tokens: Token[],
  from = 0,
  to = tokens.length,
): { at: number; name: string; args: [number, number][] }[] {
  const out: { at: number; name: string; args: [number, number][] }[] = [];
  for (let i = from; i < to; i++) {
    if (DATE_FUNCTIONS.has(tokens[i].value) && isCall(tokens, i))
      out.push({ at: i, name: tokens[i].value.toLowerCase(), args: callArguments(tokens, i + 1) });
  }
  return out;
}

/**
 * The first use of the clock or of randomness in tokens `[from, to)`: `random()`, `randomblob()`, a `CURRENT_*`
 * keyword, the string `'now'`, or a date function without a time value (`date()`, `strftime('%s')`).
 */
export function clockOrRandom(
  tokens: Token[],
  from: number,
  to: number,
): { what: string; at: number } | null {
  for (let i = from; i < to; i++) {
    const t = tokens[i];
    if (
      t.kind === 'word' &&
      (t.value === 'RANDOM' || t.value === 'RANDOMBLOB') &&
      isCall(tokens, i)
    )
      return { what: `${t.value.toLowerCase()}()`, at: t.at };
    if (t.kind === 'word' && CLOCK_KEYWORDS.has(t.value)) return { what: t.value, at: t.at };
    if (t.kind === 'string' && t.value.toLowerCase() === 'now') return { what: "'now'", at: t.at };
    if (DATE_FUNCTIONS.has(t.value) && isCall(tokens, i)) {
      const args = callArguments(tokens, i + 1);
      if (args.length === 0 || (t.value === 'STRFTIME' && args.length === 1))
        return { what: `${t.value.toLowerCase()}() without a time value`, at: t.at };
    }
  }
  return null;
}
