/**
 * Runs every ```ts block of docs/rewards.md as its own module, so a docs example that stops working fails the suite.
 * Blocks import 'seahaven' and 'seahaven/rewards', which vitest resolves to the sources.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const page = readFileSync(join(repo, 'docs', 'rewards.md'), 'utf8');

/** The ```ts blocks of a markdown page, with the line each starts on. */
function tsBlocks(markdown: string): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== '```') end++;
    if (end === lines.length) throw new Error(`docs/rewards.md: the ts block opened on line ${i + 1} is never closed`);
    out.push({ code: lines.slice(start, end).join('\n'), line: start + 1 });
    i = end;
  }
  return out;
}

const blocks = tsBlocks(page);
const dir = mkdtempSync(join(tmpdir(), 'seahaven-docs-rewards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/rewards.md examples', () => {
  it('has examples', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });

  it('finds blocks and reports unclosed ones', () => {
    expect(tsBlocks('a\n```ts\nx()\n```\n```ts\ny()\n```')).toEqual([{ code: 'x()', line: 3 }, { code: 'y()', line: 6 }]);
    expect(() => tsBlocks('```ts\nx()')).toThrow(/never closed/);
  });

  for (const [n, block] of blocks.entries()) {
    it(`example ${n + 1} (line ${block.line}) runs`, async () => {
      // Relative imports in an example are written from the repository root.
      const code = block.code.replace(/from '\.\//g, `from '${repo}`);
      const file = join(dir, `example-${n + 1}.ts`);
      writeFileSync(file, code);
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        await import(/* @vite-ignore */ pathToFileURL(file).href);
      } finally {
        log.mockRestore();
      }
    });
  }
});
