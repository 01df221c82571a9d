/**
 * Every ```ts block in README.md, AGENTS.md and docs/ is executed and type-checked here, so documentation cannot rot. A
 * block whose info string contains `no-run` (e.g. a test file that registers vitest tests) is neither run nor
 * type-checked. Blocks run as modules from the repository root, so `seahaven`, `seahaven/rewards`, … resolve to the
 * sources and `./worlds/crm/index.ts` works.
 *
 * Stated outputs are checked. A trailing `//` comment on a `console.log(...)` line states what that call prints:
 *
 *     console.log(inst.call('ping', {})); // { ok: true, result: 'pong' }
 *
 * The printed text (formatted as console.log formats it: strings bare, other values through util.inspect) must match
 * the comment, where
 * - `…` (or `...`) matches any text, and whitespace and line breaks are ignored;
 * - a word or number matches whole (`reward: 0` does not match `reward: 0.5`), unless `…` touches it (`'con_…'`);
 * - a bare key inside braces stands for that key with any value, so `{ name, score }` checks the key names in order;
 * - a leading `prints ` is ignored (`// prints Add Ada Lovelace …`).
 * A stated output whose console.log never runs fails, and so does every run of it that prints something else. A comment
 * anywhere else that reads like an output (`// r = { ok: true … }`, `// { ok: false … }`, `// prints …`,
 * `// reward 1`) fails too: log the value, so the output is checked. Remarks on a console.log line go on the line above.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatWithOptions } from 'node:util';
import { Worker } from 'node:worker_threads';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'api' ? [] : markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

export interface Example {
  file: string;
  /** The line of the opening fence; line `n` of `code` is line `line + n` of the file. */
  line: number;
  code: string;
}

export interface Block extends Example {
  /** The info string says `no-run`: the block is shown, not executed. */
  noRun: boolean;
}

/** Every TypeScript block of a markdown text, runnable or not. */
export function extractBlocks(file: string, text: string): Block[] {
  const out: Block[] = [];
  const fence = /^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```\s*$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    out.push({
      file,
      line: text.slice(0, m.index).split('\n').length,
      code: m[3],
      noRun: m[2].includes('no-run'),
    });
  }
  return out;
}

/** The runnable TypeScript blocks of a markdown text. */
export function extractExamples(file: string, text: string): Example[] {
  return extractBlocks(file, text)
    .filter((b) => !b.noRun)
    .map(({ file: f, line, code }) => ({ file: f, line, code }));
}

// ---------------------------------------------------------------------------------------------------------------------
// Stated outputs

const WORD = String.raw`[\p{L}\p{N}_$]`;
const TOKEN = new RegExp(String.raw`…|\.\.\.|${WORD}+(?:\.${WORD}+)*|\S`, 'gu');

interface Token {
  text: string;
  kind: 'wild' | 'word' | 'punct';
  /** No whitespace between this token and the previous one. */
  touchesPrev: boolean;
}

function tokenize(stated: string): Token[] {
  const tokens: Token[] = [];
  let end = -1;
  for (const m of stated.matchAll(TOKEN)) {
    const text = m[0];
    const kind =
      text === '…' || text === '...'
        ? 'wild'
        : new RegExp(`^${WORD}`, 'u').test(text)
          ? 'word'
          : 'punct';
    tokens.push({ text, kind, touchesPrev: m.index === end });
    end = m.index + text.length;
  }
  return tokens;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Regex source pieces, one per token of a stated output (see the top of this file for the rules). */
function patternPieces(stated: string): { token: string; source: string }[] {
  const tokens = tokenize(stated.trim().replace(/^prints\s+/, ''));
  const pieces: { token: string; source: string }[] = [];
  const brackets: string[] = [];
  let quote: string | null = null;
  for (const [i, t] of tokens.entries()) {
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (t.kind === 'wild') {
      if (prev?.kind !== 'wild') pieces.push({ token: t.text, source: String.raw`[\s\S]*?` });
      continue;
    }
    if (t.kind === 'punct') {
      if (quote !== null) {
        if (t.text === quote) quote = null;
      } else if (brackets.length > 0 && (t.text === "'" || t.text === '"')) {
        quote = t.text;
      } else if ('{[('.includes(t.text)) {
        brackets.push(t.text);
      } else if ('}])'.includes(t.text)) {
        brackets.pop();
      }
      pieces.push({ token: t.text, source: escape(t.text) });
      continue;
    }
    const before = prev?.kind === 'wild' && t.touchesPrev ? '' : `(?<!${WORD})`;
    const after = next?.kind === 'wild' && next.touchesPrev ? '' : `(?!${WORD}|\\.${WORD})`;
    const shorthandKey =
      quote === null &&
      brackets.at(-1) === '{' &&
      (prev?.text === '{' || prev?.text === ',') &&
      (next?.text === ',' || next?.text === '}');
    pieces.push({
      token: t.text,
      source: `${before}${escape(t.text)}${after}${shorthandKey ? String.raw`\s*:[\s\S]*?` : ''}`,
    });
  }
  return pieces;
}

/** The regex a stated output stands for: its tokens in order, whitespace-insensitive, `…` matching anything. */
export function statedOutputPattern(stated: string): RegExp {
  const body = patternPieces(stated)
    .map((p) => p.source)
    .join(String.raw`\s*`);
  return new RegExp(String.raw`^\s*${body}\s*$`, 'u');
}

/** Whether `printed` (what a console.log printed) matches the output a comment states. */
export function matchesStatedOutput(stated: string, printed: string): boolean {
  return statedOutputPattern(stated).test(printed);
}

/** Where a printed text stops matching a stated output: the first token that the longest matching prefix misses. */
function firstMismatch(stated: string, printed: string): string {
  const pieces = patternPieces(stated);
  let ok = 0;
  for (let n = 1; n <= pieces.length; n++) {
    const prefix = new RegExp(
      String.raw`^\s*${pieces
        .slice(0, n)
        .map((p) => p.source)
        .join(String.raw`\s*`)}`,
      'u',
    );
    if (!prefix.test(printed)) break;
    ok = n;
  }
  if (ok === pieces.length)
    return 'the printed text goes on after the end of the comment (end it with … to allow more)';
  return `the comment matches up to token ${ok + 1}, ${JSON.stringify(pieces[ok].token)}`;
}

const literal = String.raw`(?:[{['"]|-?\d|(?:true|false|null|undefined|NaN)\b)`;
const statedOutputLike = [
  /^(?:prints|outputs)\b/i, // prints …
  new RegExp(String.raw`^(?:→|->|=>|==>|returns|evaluates to|is|equals)\s*${literal}`), // → 3, returns { … }
  new RegExp(`^${literal}`), // { ok: true … }, 'pong', 42, true
  new RegExp(String.raw`^[\w$.?!()[\]]+\s*(?:===?|=|:)\s*${literal}`), // r = { … }, reward: 0
  new RegExp(
    String.raw`^[\w$.?]+\s+(?:-?\d[\d._]*|'[^']*'|"[^"]*"|true|false|null|undefined)\s*(?:…|\.\.\.)?\s*$`,
  ), // reward 1
];

/** Whether a comment's text reads like a program's output rather than a remark. */
export function looksLikeStatedOutput(comment: string): boolean {
  const text = comment.trim();
  return statedOutputLike.some((re) => re.test(text));
}

interface CodeComment {
  /** 1-based line within the block. */
  line: number;
  text: string;
}

interface StatedLog extends CodeComment {
  /** Offsets of the `console.log` callee, which the runner replaces with a capturing function. */
  start: number;
  end: number;
}

function commentText(code: string, range: ts.CommentRange): string {
  const raw = code.slice(range.pos, range.end);
  return range.kind === ts.SyntaxKind.SingleLineCommentTrivia ? raw.slice(2) : raw.slice(2, -2);
}

/** The console.log calls of a block that state an output, and every other comment of the block. */
export function scanComments(code: string): { logs: StatedLog[]; others: CodeComment[] } {
  const sf = ts.createSourceFile('block.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const logs: StatedLog[] = [];
  const claimed = new Set<number>();
  const seen = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node) => {
    for (const r of [
      ...(ts.getLeadingCommentRanges(code, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(code, node.end) ?? []),
    ]) {
      seen.set(r.pos, r);
    }
    if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
      const callee = node.expression.expression;
      if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'console' &&
        callee.name.text === 'log'
      ) {
        const trailing = ts.getTrailingCommentRanges(code, node.end)?.[0];
        if (trailing && trailing.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
          claimed.add(trailing.pos);
          logs.push({
            line: lineOf(trailing.pos),
            text: commentText(code, trailing).trim(),
            start: callee.getStart(sf),
            end: callee.end,
          });
        }
      }
    }
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  const others = [...seen.values()]
    .filter((r) => !claimed.has(r.pos))
    .sort((a, b) => a.pos - b.pos)
    .map((r) => ({ line: lineOf(r.pos), text: commentText(code, r).trim() }));
  return { logs, others };
}

/** Problems with how a block states outputs: comments that read like outputs but are not checked. */
export function uncheckedOutputs(block: Block): string[] {
  const { logs, others } = scanComments(block.code);
  const where = (line: number) => `${block.file}:${block.line + line}`;
  const problems = others
    .filter((c) => looksLikeStatedOutput(c.text))
    .map(
      (c) =>
        `${where(c.line)}: the comment "// ${c.text}" reads like an output, but nothing checks it. Log the value with ` +
        'console.log(...) and state the output in a trailing comment on that line (see docs/examples.test.ts).',
    );
  if (block.noRun) {
    for (const c of logs)
      problems.push(
        `${where(c.line)}: a no-run block cannot state outputs ("// ${c.text}"); it never runs.`,
      );
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------------
// The documents

const files = [
  join(root, 'README.md'),
  join(root, 'AGENTS.md'),
  ...markdownFiles(join(root, 'docs')),
].filter((f) => {
  try {
    return statSync(f).isFile();
  } catch {
    return false;
  }
});
const blocks = files.flatMap((f) => extractBlocks(relative(root, f), readFileSync(f, 'utf8')));
const examples = blocks.filter((b) => !b.noRun);

// Blocks are written one level below the root so `../worlds/...` style paths stay inside the repository; README-style
// `./worlds/...` imports are rewritten to match.
const scratch = join(root, '.docs-examples');
const asScratchModule = (code: string) => code.replace(/from '\.\/(?!\.)/g, "from '../");

// ---------------------------------------------------------------------------------------------------------------------
// Type-checking: every runnable block, as written, in one TypeScript program with the repository's settings.

interface TscResult {
  status: number;
  output: string;
}

/**
 * Writes the blocks and a tsconfig beside them that extends the repository's (its `@seahaven/source` condition
 * resolves the published names to the sources), then type-checks them with the TypeScript API in a worker thread
 * (examples-typecheck.mjs), so that it runs while the blocks do: one program for every block, asking for the blocks'
 * own diagnostics only (the sources they import are checked by `npm run typecheck`). The output is tsc's
 * `--pretty false` format.
 */
function typecheck(): Promise<TscResult> {
  mkdirSync(scratch, { recursive: true });
  const names = examples.map((ex, i) => {
    const name = `typecheck-${i}.ts`;
    // `export {}` keeps a block without imports a module, so blocks do not share a global scope.
    writeFileSync(join(scratch, name), `${asScratchModule(ex.code)}\nexport {};\n`);
    return name;
  });
  const tsconfig = {
    extends: '../tsconfig.json',
    // The published names resolve to the sources through the `@seahaven/source` condition of tsconfig.json.
    compilerOptions: { noEmit: true, incremental: false },
    files: names,
    include: [],
  };
  const configPath = join(scratch, 'tsconfig.typecheck.json');
  writeFileSync(configPath, JSON.stringify(tsconfig, null, 2));
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./examples-typecheck.mjs', import.meta.url), {
      workerData: { configPath, root, scratch, names },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the type-check worker exited with ${code} before it answered`)),
    );
  });
}

/**
 * tsc's diagnostics (`--pretty false`) split into those in the blocks, each as `file.md:line:column: message`, and the
 * others. `blockFor` maps a file tsc names to its block, or undefined for files that are not blocks.
 */
export function blockDiagnostics(
  output: string,
  blockFor: (name: string) => Example | undefined,
): { mapped: string[]; other: string[] } {
  const mapped: string[] = [];
  const other: string[] = [];
  let last: string[] = other;
  for (const line of output.split(/\r?\n/)) {
    const m = /^(.+?)\((\d+),(\d+)\): (?:error|warning) (TS\d+: .*)$/.exec(line);
    const ex = m ? blockFor(m[1].replace(/\\/g, '/')) : undefined;
    if (m && ex) {
      mapped.push(`${ex.file}:${ex.line + Number(m[2])}:${m[3]}: ${m[4]}`);
      last = mapped;
    } else if (/^\s+\S/.test(line) && last.length > 0) {
      last.push(`${last.pop()}\n${line}`); // tsc indents the details of the message above
    } else if (line.trim() !== '') {
      other.push(line);
      last = other;
    }
  }
  return { mapped, other };
}

// ---------------------------------------------------------------------------------------------------------------------
// Running

/** Where the rewritten blocks find `__docsStatedLog`. */
const statedLogGlobal = globalThis as {
  __docsStatedLog?: (site: number) => (...args: unknown[]) => void;
};
const printedAt = new Map<number, string[]>();
let nextSite = 0;

/** The type-check, started before the blocks run and awaited by its own test. */
let typechecked: Promise<TscResult> | undefined;

beforeAll(() => {
  mkdirSync(scratch, { recursive: true });
  typechecked = typecheck();
  // Awaited by the type-check test; a failure before then is reported there.
  typechecked.catch(() => undefined);
  statedLogGlobal.__docsStatedLog =
    (site) =>
    (...args) => {
      printedAt.get(site)?.push(formatWithOptions({ colors: false }, ...args));
    };
});

afterAll(async () => {
  delete statedLogGlobal.__docsStatedLog;
  // The type-check reads the blocks from the scratch folder until it answers (a filtered run may not await it).
  await typechecked?.catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs a block as a module and returns what is wrong with its stated outputs. Each console.log that states an output
 * becomes `__docsStatedLog(site)(...)`, which records what it would print.
 */
async function runExample(ex: Example, name: string): Promise<string[]> {
  const { logs } = scanComments(ex.code);
  const sites = logs.map(() => nextSite++);
  let code = ex.code;
  for (const [k, log] of [...logs.entries()].reverse()) {
    printedAt.set(sites[k], []);
    code = `${code.slice(0, log.start)}__docsStatedLog(${sites[k]})${code.slice(log.end)}`;
  }
  const path = join(scratch, `${name}.ts`);
  writeFileSync(path, asScratchModule(code));
  await import(pathToFileURL(path).href);
  const problems: string[] = [];
  for (const [k, log] of logs.entries()) {
    const where = `${ex.file}:${ex.line + log.line}`;
    const printed = printedAt.get(sites[k]) ?? [];
    if (printed.length === 0)
      problems.push(
        `${where}: this console.log never ran, so its stated output "${log.text}" is unchecked.`,
      );
    for (const text of printed) {
      if (!matchesStatedOutput(log.text, text)) {
        problems.push(
          `${where}: console.log printed\n${text}\nbut the comment states\n${log.text}\n(${firstMismatch(log.text, text)})`,
        );
      }
    }
  }
  return problems;
}

describe('stated outputs', () => {
  it('a matching output passes, a different one fails', () => {
    expect(
      matchesStatedOutput(
        "{ ok: true, result: { id: 'con_…', stage: 'lead', … } }",
        "{\n  ok: true,\n  result: { id: 'con_a1B2', name: 'Ada', stage: 'lead', notes: '' }\n}",
      ),
    ).toBe(true);
    expect(
      matchesStatedOutput(
        "{ ok: true, result: { id: 'con_…', stage: 'lead', … } }",
        "{ ok: true, result: { id: 'con_a1B2', stage: 'customer' } }",
      ),
    ).toBe(false);
    expect(matchesStatedOutput('{ ok: true, … }', '{ ok: false, error: {} }')).toBe(false);
  });

  it('words and numbers match whole unless … touches them', () => {
    expect(matchesStatedOutput('{ reward: 0, … }', '{ reward: 0.5, passed: false }')).toBe(false);
    expect(matchesStatedOutput('{ reward: 0 … }', '{ reward: 0.5, passed: false }')).toBe(false);
    expect(matchesStatedOutput('{ reward: 0, … }', '{ reward: 0, passed: false }')).toBe(true);
    expect(matchesStatedOutput('{ reward: 0… }', '{ reward: 0.5 }')).toBe(true);
    expect(matchesStatedOutput('OK crm', 'OKcrm')).toBe(false);
    expect(matchesStatedOutput('lead', 'leader')).toBe(false);
    expect(
      matchesStatedOutput(
        'T-1 a+b (c) [d] { e: 1 } ^$ | \\ / ? *',
        'T-1 a+b (c) [d] { e: 1 } ^$ | \\ / ? *',
      ),
    ).toBe(true);
  });

  it('the whole output is matched, with … for the parts left out', () => {
    expect(matchesStatedOutput('2 [ … ]', '2 [ { id: 1 } ] and more')).toBe(false);
    expect(matchesStatedOutput('SH590 warning …', 'SH590 warning: no tasks\nOK crm')).toBe(true);
    expect(matchesStatedOutput('… OK crm', 'SH590 warning\nOK crm')).toBe(true);
    expect(matchesStatedOutput('OK crm', 'SH590 warning\nOK crm')).toBe(false);
  });

  it('bare keys in braces check the key names in order', () => {
    const printed =
      "{ reward: 0, criteria: [ { name: 'a, b', score: 0, weight: 1, reason: 'x' }, { name: 'c' } ] }";
    expect(
      matchesStatedOutput(
        '{ reward: 0, criteria: [ { name, score, weight, reason }, … ] }',
        printed,
      ),
    ).toBe(true);
    expect(
      matchesStatedOutput(
        '{ reward: 0, criteria: [ { name, weight, score, reason }, … ] }',
        printed,
      ),
    ).toBe(false);
    expect(
      matchesStatedOutput(
        '{ reward: 0, criteria: [ { name, score, weight, reason, extra }, … ] }',
        printed,
      ),
    ).toBe(false);
    // Only in braces and outside quotes: elsewhere a word is a word.
    expect(matchesStatedOutput('(load, schema, tools)', '(load, schema, tools)')).toBe(true);
    expect(matchesStatedOutput("{ name: 'a, b, c' }", "{ name: 'a, b, c' }")).toBe(true);
  });

  it('ignores whitespace and a leading "prints"', () => {
    expect(
      matchesStatedOutput(
        "prints [{ table: 'notes', key: { id: 1 } }]",
        "[\n  {\n    table: 'notes',\n    key: { id: 1 }\n  }\n]",
      ),
    ).toBe(true);
    expect(
      matchesStatedOutput(
        'prints Add Ada Lovelace …',
        'Add Ada Lovelace (ada@example.com) as a lead.',
      ),
    ).toBe(true);
    expect(matchesStatedOutput('prints Add Ada Lovelace …', 'Add Grace Hopper as a lead.')).toBe(
      false,
    );
  });

  it('says where a mismatch starts', () => {
    expect(firstMismatch("{ ok: true, stage: 'lead' }", "{ ok: true, stage: 'customer' }")).toBe(
      'the comment matches up to token 9, "lead"',
    );
    expect(firstMismatch('{ ok: true }', '{ ok: true } more')).toMatch(/goes on after the end/);
  });

  it('are checked when a block runs: every run must match, and a stated output that never runs fails', async () => {
    const code = [
      "import { inspect } from 'node:util';",
      'console.log({ reward: 0.5, passed: false }); // { reward: 0.5, passed: false }',
      'for (const n of [1, 2]) console.log(n); // 1',
      "if (inspect === undefined) console.log('never'); // never",
      'console.log(1); // 1',
      '',
    ].join('\n');
    expect(await runExample({ file: 'x.md', line: 10, code }, 'self-test')).toEqual([
      'x.md:13: console.log printed\n2\nbut the comment states\n1\n(the comment matches up to token 1, "1")',
      'x.md:14: this console.log never ran, so its stated output "never" is unchecked.',
    ]);
  });

  it('tells outputs from remarks', () => {
    for (const output of [
      'r = { ok: true … }',
      '{ ok: false … }',
      'prints …',
      'reward 1',
      "'Acme Notes'",
      '→ 3',
      'returns { id: 1 }',
      'g.reward === 0.5',
      'reward: 0',
      '[1, 2]',
    ]) {
      expect(looksLikeStatedOutput(output), output).toBe(true);
    }
    for (const remark of [
      'the agent would play here',
      'after 10 perfect outcomes in stage "one"',
      'a server uses a file: see "Runs"',
      '`npm start` runs this on port 8000',
      'unsubmitted: episode 2 is given up',
      'or ctx.clock.iso()',
      'returns the ticket it closed',
      '^[a-z][a-z0-9_]{0,63}$, not a protocol name',
    ]) {
      expect(looksLikeStatedOutput(remark), remark).toBe(false);
    }
  });

  it('finds stated outputs on console.log lines and flags unchecked ones elsewhere', () => {
    const code = [
      'const r = f(); // r = { ok: true … }',
      'console.log(r); // { ok: true, … }',
      'console.log(',
      '  r,',
      '); // { ok: true, … }',
      '// { ok: false … }',
      'g(); // the agent would play here',
      "const s = '// not a comment'; // reward 1",
      '',
    ].join('\n');
    const { logs, others } = scanComments(code);
    expect(logs.map((l) => [l.line, l.text, code.slice(l.start, l.end)])).toEqual([
      [2, '{ ok: true, … }', 'console.log'],
      [5, '{ ok: true, … }', 'console.log'],
    ]);
    expect(others.map((c) => [c.line, c.text])).toEqual([
      [1, 'r = { ok: true … }'],
      [6, '{ ok: false … }'],
      [7, 'the agent would play here'],
      [8, 'reward 1'],
    ]);
    const problems = uncheckedOutputs({ file: 'x.md', line: 10, code, noRun: false });
    expect(problems.map((p) => p.slice(0, p.indexOf(' reads')))).toEqual([
      'x.md:11: the comment "// r = { ok: true … }"',
      'x.md:16: the comment "// { ok: false … }"',
      'x.md:18: the comment "// reward 1"',
    ]);
    expect(problems[0]).toMatch(/Log the value with console\.log/);
    expect(
      uncheckedOutputs({ file: 'x.md', line: 1, code: 'console.log(1); // 1\n', noRun: true }),
    ).toEqual(['x.md:2: a no-run block cannot state outputs ("// 1"); it never runs.']);
  });
});

describe('type errors', () => {
  it('are reported at their markdown line, with the details tsc indents', () => {
    const output = [
      ".docs-examples/typecheck-1.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      'kit/x.ts(1,1): error TS1005: something else.',
      '.docs-examples/typecheck-0.ts(2,1): error TS2769: No overload matches this call.',
      '  Overload 1 of 2 gave the following error.',
      'error TS5083: Cannot read file.',
    ].join('\n');
    const found = blockDiagnostics(
      output,
      (path) =>
        ({
          '.docs-examples/typecheck-0.ts': { file: 'a.md', line: 10, code: '' },
          '.docs-examples/typecheck-1.ts': { file: 'b.md', line: 20, code: '' },
        })[path],
    );
    expect(found.mapped).toEqual([
      "b.md:23:7: TS2322: Type 'string' is not assignable to type 'number'.",
      'a.md:12:1: TS2769: No overload matches this call.\n  Overload 1 of 2 gave the following error.',
    ]);
    expect(found.other).toEqual([
      'kit/x.ts(1,1): error TS1005: something else.',
      'error TS5083: Cannot read file.',
    ]);
  });
});

describe('AGENTS.md', () => {
  it('names every lint rule', async () => {
    const { rules } = await import('seahaven/lint');
    const agents = readFileSync(join(root, 'AGENTS.md'), 'utf8');
    expect(Object.keys(rules).filter((id) => !agents.includes(`\`${id}\``))).toEqual([]);
  });
});

describe('documentation examples', () => {
  it('finds examples in the docs', () => {
    expect(examples.length).toBeGreaterThan(5);
  });

  it('extractExamples skips no-run blocks and keeps line numbers', () => {
    const found = extractExamples(
      'x.md',
      'a\n```ts\nconst a = 1;\n```\n```ts no-run\nboom();\n```\n',
    );
    expect(found).toEqual([{ file: 'x.md', line: 2, code: 'const a = 1;\n' }]);
  });

  it('state no output that goes unchecked', () => {
    expect(blocks.flatMap(uncheckedOutputs)).toEqual([]);
  });

  for (const [i, ex] of examples.entries()) {
    it(`${ex.file}:${ex.line}`, async () => {
      const problems = await runExample(ex, `example-${i}`);
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  }

  it('type-check (one program for every block)', { timeout: 120_000 }, async () => {
    const { status, output } = await typechecked!;
    const { mapped, other } = blockDiagnostics(
      output,
      (path) =>
        examples[Number(/(?:^|\/)\.docs-examples\/typecheck-(\d+)\.ts$/.exec(path)?.[1] ?? NaN)],
    );
    expect(
      mapped,
      `tsc found type errors in documentation examples:\n${mapped.join('\n')}`,
    ).toEqual([]);
    // Only the blocks' diagnostics were asked for, so anything else is a broken set-up (options, config, globals).
    expect(other, `the type-check set-up failed:\n${output}`).toEqual([]);
    expect(status, output).toBe(0);
  });
});
