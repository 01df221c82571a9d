/** `seahaven docs [topic]`: print the bundled docs (the index, or one page). */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { bundledPath } from '../../bundled.ts';
import { CliError } from '../errors.ts';

/** The docs folder, found when a docs command runs (the other commands do without it). */
const docsDir = (): string => bundledPath('docs/');

/** Topics: every page in docs/ (without `.md`), and folders such as `lint-rules` (their pages concatenated). */
export function docTopics(): string[] {
  return readdirSync(docsDir())
    .filter((n) => n.endsWith('.md') || (statSync(join(docsDir(), n)).isDirectory() && n !== 'api'))
    .map((n) => n.replace(/\.md$/, ''))
    .filter((n) => n !== 'index')
    .sort();
}

export function readDoc(topic?: string): string {
  if (topic === undefined) return readFileSync(join(docsDir(), 'index.md'), 'utf8');
  const page = join(docsDir(), `${topic}.md`);
  if (existsSync(page)) return readFileSync(page, 'utf8');
  const dir = join(docsDir(), topic);
  if (/^[a-z0-9-]+$/.test(topic) && existsSync(dir) && statSync(dir).isDirectory()) {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => readFileSync(join(dir, n), 'utf8'))
      .join('\n---\n\n');
  }
  throw new CliError(`no docs topic "${topic}"; topics: ${docTopics().join(', ')}`, 2);
}

export function registerDocs(program: Command): void {
  program
    .command('docs')
    .description('print the bundled docs: the index, or one topic')
    .argument('[topic]', 'a topic, e.g. authoring, fixtures, rewards')
    .option('--list', 'list the topics')
    .action((topic: string | undefined, opts: { list?: boolean }) => {
      process.stdout.write(opts.list ? docTopics().join('\n') + '\n' : readDoc(topic));
    });
}
