/** Point findings at source: the first stack frame inside the world's folder, or the line of a pattern in its files. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Location } from './codes.ts';

const SKIP = new Set(['node_modules', 'fixtures', 'dist', '.git']);

/** The first frame of `error`'s stack that lies inside `folder`. */
export function locateInStack(error: unknown, folder: string): Location | undefined {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  for (const m of stack.matchAll(/(file:\/\/[^\s():]+|\/[^\s():]+):(\d+):(\d+)/g)) {
    const file = m[1].startsWith('file://') ? fileURLToPath(m[1]) : m[1];
    if (file.startsWith(folder)) return { file, line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}

/** Source files of a world folder (recursively, without fixtures or dependencies), with the given extensions. */
export function worldFiles(folder: string, extensions: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!SKIP.has(name) && depth < 4) walk(path, depth + 1);
      } else if (extensions.some((e) => name.endsWith(e))) {
        out.push(path);
      }
    }
  };
  walk(folder, 0);
  return out;
}

/** The line and column where `pattern` first matches `text` (1-based). */
export function positionOf(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

/** The first place `pattern` matches in the folder's files with the given extensions. */
export function locateInFiles(
  folder: string | null,
  extensions: readonly string[],
  pattern: RegExp,
): Location | undefined {
  if (folder === null) return undefined;
  for (const file of worldFiles(folder, extensions)) {
    const text = readFileSync(file, 'utf8');
    const m = pattern.exec(text);
    if (m) return { file, ...positionOf(text, m.index) };
  }
  return undefined;
}

/** Escape text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
