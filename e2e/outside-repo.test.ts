/**
 * The README's and docs/install.md's commands for using the kit outside this repository, run exactly as written, with
 * `~` a temporary folder: a new world project created from this clone installs with no registry copy of seahaven and
 * passes its checks; an existing project installs the packed kit; `--print-config` gives an MCP client a command that
 * works from any folder. Each `npm install` here is real (the machine's npm cache and settings, better-sqlite3 built).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot, repoRoot, underPackLock } from 'seahaven/internal/core/test/packed-install';

const exec = promisify(execFile);

/** The first fenced block of `lang` after the heading `heading` in `file` (relative to the repository root). */
function blockAfter(file: string, heading: string, lang: string): string {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${file} has no heading "${heading}"`);
  const m = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'm').exec(text.slice(at));
  if (m === null) throw new Error(`${file} has no \`\`\`${lang} block after "${heading}"`);
  return m[1];
}

// `~` is a fresh folder; npm keeps the machine's settings (e.g. where node's headers are) and download cache.
const npmConfig = (key: string) =>
  execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
const homes: string[] = [];
function userEnv(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'seahaven-home-'));
  homes.push(home);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    npm_config_userconfig: npmConfig('userconfig'),
    npm_config_cache: npmConfig('cache'),
    NO_COLOR: '1',
  };
  // Commands run as a person would type them, not as children of this test's npm script.
  for (const key of Object.keys(env))
    if (/^npm_(lifecycle|package|command)/.test(key) || key === 'INIT_CWD') delete env[key];
  return env;
}
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/**
 * Run a documented block in bash from the clone. Its first line packs the kit (so it runs while no other test packs),
 * the rest follow in one shell; a line's `# prints X` comment is checked against what the block printed.
 */
async function runBlock(block: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [first, ...rest] = block.trimEnd().split('\n');
  const shell = (script: string) =>
    exec('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: repoRoot,
      env,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 540_000,
    }).then(
      (r) => `${r.stdout}\n${r.stderr}`,
      (e: Error & { stdout?: string; stderr?: string }) => {
        throw new Error(`${script}\nfailed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
      },
    );
  let out = await underPackLock(() => shell(first));
  if (rest.length > 0) out += await shell(rest.join('\n'));
  for (const m of block.matchAll(/#\s*prints (.+)$/gm))
    expect(
      out.split('\n').map((l) => l.trim()),
      out,
    ).toContain(m[1].trim());
  return out;
}

interface ServerEntry {
  command: string;
  args: string[];
}

/** Start an `mcpServers` entry from `cwd`, as an MCP client does, and list its tools. */
async function toolsOf(entry: ServerEntry, cwd: string): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    cwd,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'outside-repo-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('the kit outside this repository', () => {
  it.concurrent(
    "README's Build your own world: a project outside the clone installs without a registry copy and passes test, check and lint",
    async () => {
      const env = userEnv();
      const block = blockAfter('README.md', '## Build your own world', 'sh');
      expect(block.split('\n')[0]).toMatch(/^npx seahaven new ~\//);
      const out = await runBlock(block, env);
      expect(out).toMatch(/Tests\s+8 passed \(8\)/);
      expect(out).toContain(
        'OK my-world 0.1.0: no findings (load, schema, tools, fixtures, lint, determinism, graders).',
      );
      expect(out).toContain('seahaven lint: 4 files in ., no findings.');

      // The kit came from the tarball packed into the project, not from a registry.
      const project = join(env.HOME!, 'my-world');
      expect(
        JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies.seahaven,
      ).toBe('file:seahaven-0.1.0.tgz');
      const lock = JSON.parse(
        readFileSync(join(project, 'node_modules', '.package-lock.json'), 'utf8'),
      );
      expect(lock.packages['node_modules/seahaven'].resolved).toBe('file:seahaven-0.1.0.tgz');

      // The project's own world, handed to an MCP client that starts it from another folder.
      const { stdout } = await exec('npx', ['seahaven', 'mcp', '--print-config'], {
        cwd: project,
        env,
      });
      const entry = (JSON.parse(stdout) as { mcpServers: Record<string, ServerEntry> }).mcpServers[
        'my-world'
      ];
      expect(entry.args.slice(1)).toEqual(['mcp', join(project, 'world.ts')]);
      expect(await toolsOf(entry, env.HOME!)).toEqual(
        expect.arrayContaining(['list_todos', 'complete_todo']),
      );
    },
    600_000,
  );

  it.concurrent(
    'docs/install.md: an existing project installs the packed kit and imports it',
    async () => {
      const env = userEnv();
      const block = blockAfter('docs/install.md', '## An existing project', 'sh');
      expect(block.split('\n')[0]).toMatch(/npm pack/);
      const out = await runBlock(block, env);
      expect(out).toContain('0.1.0');
      expect(
        existsSync(
          join(env.HOME!, 'my-app', 'node_modules', 'seahaven', 'dist', 'core', 'index.js'),
        ),
      ).toBe(true);
    },
    600_000,
  );

  it.concurrent(
    "README's MCP client command prints a configuration that starts the server from any folder",
    async () => {
      const command = blockAfter('README.md', '## Try a world from an MCP client', 'sh').trim();
      expect(
        blockAfter('docs/install.md', '## Pointing an MCP client at a world', 'sh').trim(),
      ).toBe(command);
      expect(blockAfter('docs/mcp.md', '### Claude Desktop', 'sh').trim()).toBe(command);
      expect(blockAfter('docs/mcp.md', '### Claude Desktop', 'json')).toBe(
        blockAfter('README.md', '## Try a world from an MCP client', 'json'),
      );
      const documented = JSON.parse(
        blockAfter('README.md', '## Try a world from an MCP client', 'json'),
      ) as { mcpServers: Record<string, ServerEntry> };
      const [npx, ...args] = command.split(/\s+/);
      const env = userEnv();
      const { stdout } = await exec(npx, args, { cwd: repoRoot, env });
      const printed = JSON.parse(stdout) as { mcpServers: Record<string, ServerEntry> };
      expect(Object.keys(printed.mcpServers)).toEqual(Object.keys(documented.mcpServers));
      const entry = printed.mcpServers.crm;
      // The README shows a placeholder home; everything else is printed as documented, with absolute paths.
      expect(entry.args.slice(1)).toEqual(documented.mcpServers.crm.args.slice(1));
      expect(entry.args[0]).toBe(join(packageRoot, 'bin', 'seahaven.mjs'));
      expect(isAbsolute(entry.command) && existsSync(entry.command)).toBe(true);
      const tools = await toolsOf(entry, env.HOME!);
      expect(tools).toEqual(expect.arrayContaining(['create_contact', 'search_contacts']));
    },
    60_000,
  );
});
