/**
 * Every ```ts block in README.md, AGENTS.md and docs/ is executed here, so documentation cannot rot. A block whose
 * info string contains `no-run` (e.g. a lint rule's ❌ example) is skipped. Blocks run as modules from the repository
 * root, so `seahaven`, `seahaven/rewards`, … resolve to the sources and `./worlds/crm/index.ts` works.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

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
  line: number;
  code: string;
}

/** The runnable TypeScript blocks of a markdown text. */
export function extractExamples(file: string, text: string): Example[] {
  const out: Example[] = [];
  const fence = /^```(ts|typescript)([^\n]*)\n([\s\S]*?)^```\s*$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    if (m[2].includes('no-run')) continue;
    out.push({ file, line: text.slice(0, m.index).split('\n').length, code: m[3] });
  }
  return out;
}

const files = [join(root, 'README.md'), join(root, 'AGENTS.md'), ...markdownFiles(join(root, 'docs'))].filter((f) => {
  try {
    return statSync(f).isFile();
  } catch {
    return false;
  }
});
const examples = files.flatMap((f) => extractExamples(relative(root, f), readFileSync(f, 'utf8')));
const scratch = join(root, '.docs-examples');
mkdirSync(scratch, { recursive: true });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('documentation examples run', () => {
  it('finds examples in the docs', () => {
    expect(examples.length).toBeGreaterThan(5);
  });

  it('extractExamples skips no-run blocks and keeps line numbers', () => {
    const found = extractExamples('x.md', 'a\n```ts\nconst a = 1;\n```\n```ts no-run\nboom();\n```\n');
    expect(found).toEqual([{ file: 'x.md', line: 2, code: 'const a = 1;\n' }]);
  });

  for (const [i, ex] of examples.entries()) {
    it(`${ex.file}:${ex.line}`, async () => {
      // Written one level below the root so `../worlds/...` style paths stay inside the repository; README-style
      // `./worlds/...` imports are rewritten to match.
      const path = join(scratch, `example-${i}.ts`);
      writeFileSync(path, ex.code.replace(/from '\.\/(?!\.)/g, "from '../"));
      await import(pathToFileURL(path).href);
    });
  }
});
