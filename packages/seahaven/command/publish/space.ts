/**
 * The folder `seahaven publish` uploads as a Hugging Face Space (Docker SDK): a Dockerfile that installs the kit and
 * serves the world on the port the Space declares, a README.md whose front matter declares that port, the Docker SDK
 * and the `openenv` tag, OpenEnv's manifest (`openenv.yaml`), and a package.json naming the kit. The folder stands on
 * its own: the kit comes from a registry version or from a tarball inside the folder, and a world that is not one of
 * the kit's examples is copied into `world/`.
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kitOrigin, packKit } from '../scaffold/kit-source.ts';
import type { World } from '../../core/world-types.ts';

/** The port the Space declares (`app_port`) and the container serves on; `seahaven serve`'s own default. */
export const SPACE_PORT = 8000;

const KIT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A Space id as the hub takes it: `owner/name`, letters, digits, `-`, `_` and `.`. */
export const SPACE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}\/[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/;

/** A folder the Space cannot be written to, or a world it cannot carry; the message names the fix. */
export class SpaceError extends Error {
  override name = 'SpaceError';
}

export interface SpaceOptions {
  /** The world to serve. */
  world: World;
  /** The module file that exports it (what `resolveWorldModule` gave). */
  module: string;
  /** The Space, `owner/name`. */
  space: string;
  /**
   * The Space's `seahaven` dependency: a registry version or range, or the path of a tarball or of a kit folder to
   * pack into the Space. Default: this kit's version when it came from the registry, else this kit packed.
   */
  kit?: string;
  /** Told about slow steps (packing the kit), one line each. */
  onProgress?: (line: string) => void;
}

export interface SpaceFolder {
  /** The folder, absolute. */
  dir: string;
  /** Every file written, relative to `dir`, sorted. */
  files: string[];
  /** What the container runs (the Dockerfile's CMD), with `$PORT` set by the environment. */
  command: string[];
  /** Where the Space answers once built: `https://<owner>-<name>.hf.space`. */
  appUrl: string;
}

/** The host a Space's app answers on: owner and name, lower case, `_` and `.` as `-`. */
export function spaceHost(space: string): string {
  return `${space.replace('/', '-').toLowerCase().replace(/[_.]/g, '-')}.hf.space`;
}

/** The folder a world project lives in: the nearest folder up from the module (at most one up) with a package.json. */
function worldRoot(module: string): string {
  const own = dirname(module);
  if (existsSync(join(own, 'package.json'))) return own;
  if (existsSync(join(dirname(own), 'package.json'))) return dirname(own);
  return own;
}

const SKIPPED = new Set(['node_modules', '.git', '.data', 'dist', 'coverage']);

/** The plain names a folder's `.gitignore` lists (no patterns): files git leaves out, such as rebuilt fixture images. */
function ignoredNames(dir: string): Set<string> {
  const file = join(dir, '.gitignore');
  if (!existsSync(file)) return new Set();
  return new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#') && !/[*?[\]/!]/.test(l)),
  );
}

/**
 * Copy the world project into `world/`, without installed packages, builds, state, secrets or packed kits, and
 * without the files a folder's `.gitignore` names (fixture images over 1 MiB, which the server rebuilds on first use).
 */
function copyWorld(root: string, into: string): void {
  const ignored = new Map<string, Set<string>>();
  cpSync(root, into, {
    recursive: true,
    filter: (src) => {
      if (src === root) return true;
      const name = basename(src);
      const dir = dirname(src);
      if (!ignored.has(dir)) ignored.set(dir, ignoredNames(dir));
      if (ignored.get(dir)!.has(name)) return false;
      return !SKIPPED.has(name) && !name.endsWith('.tgz') && !name.startsWith('.env');
    },
  });
}

interface ProjectManifest {
  dependencies?: Record<string, string>;
}

/** `seahaven-<version>.tgz`, read from the tarball's own package.json (as `npm pack` names it), else `seahaven.tgz`. */
function tarballName(path: string): string {
  try {
    const manifest = execFileSync('tar', ['-xzOf', path, 'package/package.json'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const { name, version } = JSON.parse(manifest) as { name?: string; version?: string };
    if (name === 'seahaven' && typeof version === 'string' && /^[\w.+-]+$/.test(version))
      return `seahaven-${version}.tgz`;
  } catch {
    // Not readable as a package tarball: npm will say so when the image installs it.
  }
  return 'seahaven.tgz';
}

/** The Space's `seahaven` dependency, packing or copying the kit into `dir` when it is not a registry version. */
async function kitDependency(dir: string, options: SpaceOptions): Promise<string> {
  const spec = options.kit;
  if (spec !== undefined) {
    const path = resolve(spec.replace(/^file:/, ''));
    if (existsSync(path) && statSync(path).isFile()) {
      if (!path.endsWith('.tgz'))
        throw new SpaceError(
          `--kit ${spec} is a file but not a tarball (.tgz); give a version, a kit folder or the tarball \`npm pack\` made`,
        );
      const name = tarballName(path);
      copyFileSync(path, join(dir, name));
      return `file:${name}`;
    }
    if (existsSync(path) && statSync(path).isDirectory()) {
      options.onProgress?.(`Packing the kit at ${path} into the Space…`);
      return `file:${await packKit(dir, path.endsWith(sep) ? path : path + sep)}`;
    }
    if (spec.startsWith('file:') || spec.includes('/'))
      throw new SpaceError(
        `--kit ${spec}: no such file or folder; give a version (like 0.1.0), a kit folder or a tarball`,
      );
    return spec;
  }
  const origin = kitOrigin();
  if (origin.from === 'registry') return origin.version;
  options.onProgress?.(
    `Packing this kit into the Space, so the image installs it without a registry copy of seahaven${origin.installed ? '' : ' (builds it first: about 30 s)'}…`,
  );
  return `file:${await packKit(dir)}`;
}

const shellQuote = (s: string) =>
  /^[\w./=:@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
const yamlString = (s: string) => JSON.stringify(s);
/** One line of markdown text: no line breaks. */
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();

function readme(world: World, space: string, appUrl: string): string {
  const fixtures = Object.entries(world.fixtures);
  const defaultFixture = fixtures[0]?.[0];
  const callable = world
    .toolListings()
    .find(
      (t) => !Array.isArray(t.inputSchema.required) || t.inputSchema.required.length === 0,
    )?.name;
  const lines = [
    '---',
    `title: ${yamlString(`${world.name} (Seahaven world)`)}`,
    'emoji: 🌊',
    'colorFrom: blue',
    'colorTo: green',
    'sdk: docker',
    `app_port: ${SPACE_PORT}`,
    'pinned: false',
    'tags:',
    '  - openenv',
    '  - seahaven',
    '  - reinforcement-learning',
    '---',
    '',
    `# ${world.name} ${world.version}`,
    '',
    oneLine(
      world.description || `A Seahaven world: ${world.tools.length} tools over a SQLite database.`,
    ),
    '',
    `An OpenEnv environment served by Seahaven: each WebSocket session on \`/ws\` is its own`,
    'copy of a frozen fixture; actions are tool calls, and a graded task ends with `{"type": "submit"}`, whose reward',
    'comes from the rows the agent changed. It also answers `/reset`, `/step`, `/state`, `/health`, `/metadata`,',
    '`/schema`, JSON-RPC and MCP on `/mcp`, and a web console on `/console/`.',
    '',
    '## Connect',
    '',
    '```python',
    'from openenv.core import GenericEnvClient',
    '',
    `with GenericEnvClient(base_url="${appUrl}").sync() as env:`,
    `    env.reset(${defaultFixture ? `fixture="${defaultFixture}", ` : ''}seed=1)`,
    callable
      ? `    print(env.step({"type": "call_tool", "tool_name": "${callable}", "arguments": {}}))`
      : '    print(env.step({"type": "list_tools"}))',
    '```',
    '',
    '```ts',
    "import { SeahavenClient } from 'seahaven/client';",
    '',
    `await using env = await SeahavenClient.connect('${appUrl}');`,
    `await env.reset({ ${defaultFixture ? `fixture: '${defaultFixture}', ` : ''}seed: 1 });`,
    `console.log(${callable ? `await env.call('${callable}', {})` : 'await env.listTools()'});`,
    '```',
    '',
    `If the Space sets a \`SEAHAVEN_TOKEN\` secret, every request needs \`Authorization: Bearer <token>\`. The Space is \`${space}\`.`,
    '',
    '## Fixtures',
    '',
    ...fixtures.map(
      ([id, f]) =>
        `- \`${id}\`${id === defaultFixture ? ' (default)' : ''}${f.difficulty === undefined ? '' : `, difficulty ${f.difficulty}`}: ${oneLine(f.description)}`,
    ),
  ];
  if (world.tasks.length > 0) {
    lines.push(
      '',
      '## Tasks',
      '',
      'Reset with `{"task": "<id>"}` to start one; `{"type": "submit"}` grades it.',
      '',
    );
    for (const t of world.tasks)
      lines.push(
        `- \`${t.id}\` (fixture \`${t.fixture}\`${t.difficulty === undefined ? '' : `, difficulty ${t.difficulty}`}): ${oneLine(t.prompt)}`,
      );
  }
  if (world.curricula.length > 0) {
    lines.push(
      '',
      '## Curricula',
      '',
      'Reset with `{"curriculum": "<name>", "run_id": "<your run>"}` to be handed tasks stage by stage.',
      '',
    );
    for (const c of world.curricula) lines.push(`- \`${c.name}\``);
  }
  lines.push('', '## Tools', '');
  for (const t of world.toolListings()) lines.push(`- \`${t.name}\`: ${oneLine(t.description)}`);
  return lines.join('\n') + '\n';
}

function dockerfile(command: string[]): string {
  return [
    `# Serves the world over OpenEnv on the port README.md declares (app_port ${SPACE_PORT}). Written by \`seahaven publish\`.`,
    'FROM node:20-bookworm-slim',
    '# better-sqlite3 compiles from source where no prebuilt binary fits.',
    'RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*',
    `ENV NODE_ENV=production TZ=UTC PORT=${SPACE_PORT}`,
    'WORKDIR /app',
    "# Spaces run the container as uid 1000 (the image's `node` user): it owns the app, so `.data/` can be written.",
    'RUN chown node:node /app',
    'USER node',
    'COPY --chown=node:node . .',
    'RUN npm install --omit=dev --no-audit --no-fund',
    `EXPOSE ${SPACE_PORT}`,
    `HEALTHCHECK --interval=30s --timeout=5s --start-period=60s CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]`,
    `CMD ${JSON.stringify(command)}`,
    '',
  ].join('\n');
}

function openenvYaml(world: World, worldRef: string): string {
  return [
    '# OpenEnv manifest of this Space (written by `seahaven publish`).',
    'spec_version: 1',
    `name: ${yamlString(world.name)}`,
    `version: ${yamlString(world.version)}`,
    `description: ${yamlString(oneLine(world.description || `Seahaven world ${world.name}`))}`,
    'type: space',
    'runtime: docker',
    `app: ${yamlString(`seahaven serve ${worldRef}`)}`,
    `port: ${SPACE_PORT}`,
    '',
  ].join('\n');
}

/**
 * Write the Space folder for `options.world` into `dir`, which must not exist or be empty.
 * @example
 * const space = await writeSpace('/tmp/crm-space', { world: crm, module: resolveWorldModule('crm'), space: 'me/crm' });
 */
export async function writeSpace(dir: string, options: SpaceOptions): Promise<SpaceFolder> {
  if (!SPACE_ID.test(options.space))
    throw new SpaceError(
      `--space ${options.space}: give the Space as owner/name, like my-user/crm-world (letters, digits, -, _ and .)`,
    );
  const out = resolve(dir);
  if (existsSync(out) && (!statSync(out).isDirectory() || readdirSync(out).length > 0)) {
    throw new SpaceError(
      `${out} is not an empty folder; give a new or empty folder with --out <dir>`,
    );
  }
  mkdirSync(out, { recursive: true });
  const { world } = options;
  const dependencies: Record<string, string> = {};
  const root = worldRoot(resolve(options.module));
  if (world.fixturesDir !== null && relative(root, world.fixturesDir).startsWith('..')) {
    throw new SpaceError(
      `the fixtures of ${world.name} (${world.fixturesDir}) are outside its folder ${root}; keep them beside the world so the Space can carry them`,
    );
  }
  if (out === root || out.startsWith(root + sep))
    throw new SpaceError(
      `--out ${out} is inside the world's folder ${root}; write the Space elsewhere`,
    );
  copyWorld(root, join(out, 'world'));
  const worldRef = `world/${relative(root, resolve(options.module)).split(sep).join('/')}`;
  if (existsSync(join(root, 'package.json'))) {
    const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as ProjectManifest;
    for (const [name, version] of Object.entries(own.dependencies ?? {}))
      if (name !== 'seahaven') dependencies[name] = version;
  }
  dependencies.seahaven = await kitDependency(out, options);

  const host = spaceHost(options.space);
  const serve = [
    'exec',
    'node_modules/.bin/seahaven',
    'serve',
    worldRef,
    '--host',
    '0.0.0.0',
    '--port',
    '"$PORT"',
    '--allow-host',
    host,
  ].map((a) => (a === '"$PORT"' ? a : shellQuote(a)));
  const command = ['sh', '-c', serve.join(' ')];
  const kit = JSON.parse(readFileSync(join(KIT_ROOT, 'package.json'), 'utf8')) as {
    engines?: Record<string, string>;
    allowScripts?: Record<string, boolean>;
  };
  const manifest = {
    name: options.space
      .split('/')[1]
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-'),
    version: world.version,
    private: true,
    description: oneLine(world.description || `Seahaven world ${world.name}`),
    type: 'module',
    engines: { node: kit.engines?.node ?? '>=20.19' },
    dependencies: Object.fromEntries(
      Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)),
    ),
    ...(kit.allowScripts ? { allowScripts: kit.allowScripts } : {}),
  };
  const appUrl = `https://${host}`;
  writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(out, 'Dockerfile'), dockerfile(command));
  writeFileSync(join(out, '.dockerignore'), 'node_modules\n.data\n');
  writeFileSync(join(out, 'README.md'), readme(world, options.space, appUrl));
  writeFileSync(join(out, 'openenv.yaml'), openenvYaml(world, worldRef));
  return { dir: out, files: listFiles(out), command, appUrl };
}

/** Every file under `dir`, relative and with `/` separators, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}
