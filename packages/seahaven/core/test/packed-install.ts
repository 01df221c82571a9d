/**
 * Install this package the way a consumer gets it, for tests that use the published names. `packedTarball()` runs
 * `npm pack` (which runs the `prepare` build into dist/) once per version of the packed sources, however many test
 * files ask at the same time; `installPacked()` unpacks the tarball into `<project>/node_modules/seahaven` and links
 * the named dependencies from this repository's node_modules, with their commands in `node_modules/.bin`. Nothing is
 * fetched from a registry.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packKit } from '../../command/scaffold/kit-source.ts';

/** The package that gets packed: packages/seahaven. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The repository root: its node_modules, and the docs, AGENTS.md and README.md the pack bundles. */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** Stripe World's package, packed for projects that mount it. */
export const stripeRoot = join(repoRoot, 'worlds', 'stripe');
/** The crm world's package, packed for projects that serve it. */
export const crmRoot = join(repoRoot, 'worlds', 'crm');

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** The package's runtime dependencies, which a real install would put beside it. */
export const runtimeDependencies: readonly string[] = Object.keys(
  manifest(packageRoot).dependencies ?? {},
);

// Everything `npm pack` reads for the package in `root`: its manifest, the build configs, what `files` lists
// (generated folders left out), and the repository's documents that `prepack` bundles.
function sourcesDigest(root: string): string {
  const hash = createHash('sha256');
  const skip = new Set(['node_modules', 'dist', join(repoRoot, 'docs', 'api')]);
  const add = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort())
        if (!skip.has(name) && !skip.has(join(path, name))) add(join(path, name));
      return;
    }
    hash.update(relative(repoRoot, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  const files = manifest(root).files ?? [];
  // A pattern in `files` (Stripe World lists `*.ts`), or no `files` at all, stands for the whole folder.
  const entries =
    files.length === 0 || files.some((f) => f.includes('*') && !f.startsWith('!'))
      ? ['.']
      : ['package.json', 'tsconfig.build.json', ...files];
  for (const entry of entries) add(join(root, entry));
  for (const entry of ['tsconfig.json', 'docs', 'AGENTS.md', 'README.md'])
    add(join(repoRoot, entry));
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function packCache(): string {
  const cache = join(
    tmpdir(),
    `seahaven-pack-${createHash('sha256').update(packageRoot).digest('hex').slice(0, 12)}`,
  );
  mkdirSync(cache, { recursive: true });
  return cache;
}

/**
 * Run `work` (which packs this checkout some other way, e.g. `seahaven new` or a documented `npm pack`) while no other
 * test packs it: `prepare` rewrites dist/ in place.
 * @example await underPackLock(() => run('npm', ['pack'], { cwd: packageRoot }));
 */
export function underPackLock<T>(work: () => Promise<T>): Promise<T> {
  return withPackLock(packCache(), work);
}

// One pack at a time per checkout: `prepare` writes dist/ in place, so two at once would race.
async function withPackLock<T>(cache: string, work: () => Promise<T>): Promise<T> {
  const lock = join(cache, 'lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(
        existsSync(join(lock, 'pid')) ? readFileSync(join(lock, 'pid'), 'utf8') : NaN,
      );
      const abandoned = Number.isInteger(holder)
        ? !alive(holder)
        : Date.now() - statSync(lock).mtimeMs > 60_000;
      if (abandoned) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(
          `waited 10 minutes for the npm pack lock ${lock}; remove it if no test run is packing`,
        );
      else await sleep(250);
    }
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * The path of a tarball `npm pack` made from the current sources of the package in `root` (default: seahaven). Packs
 * (about 30 s: the `prepare` build) only when no tarball of these exact sources exists yet; concurrent callers wait
 * for one pack. Stripe World's build reads seahaven's, so packing it packs seahaven first.
 * @example
 * const tarball = await packedTarball();
 */
export async function packedTarball(root = packageRoot): Promise<string> {
  if (root !== packageRoot) await packedTarball(packageRoot);
  const cache = packCache();
  const prefix = `${manifest(root).name.replace(/^@/, '').replace('/', '-')}-`;
  return withPackLock(cache, async () => {
    const tarball = join(cache, `${prefix}${sourcesDigest(root)}.tgz`);
    if (existsSync(tarball)) return tarball;
    const scratch = join(cache, `pack-${process.pid}`);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch);
    try {
      // The same pack `seahaven new` makes of a clone: build, then `npm pack`.
      const packed = await packKit(scratch, root);
      // Older tarballs are of sources that no longer exist.
      for (const old of readdirSync(cache))
        if (old.startsWith(prefix) && old.endsWith('.tgz'))
          rmSync(join(cache, old), { force: true });
      renameSync(join(scratch, packed), tarball);
      return tarball;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

function linkBins(modules: string, pkg: string): void {
  const dir = join(modules, pkg);
  const { name, bin } = manifest(dir);
  if (bin === undefined) return;
  const bins = typeof bin === 'string' ? { [basename(name)]: bin } : bin;
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    const link = join(modules, '.bin', command);
    if (!existsSync(link)) symlinkSync(relative(join(modules, '.bin'), join(dir, file)), link);
  }
}

/**
 * Install the packed package into `project` (`node_modules/<its name>`) and link each of `dependencies` from this
 * repository's node_modules, as `npm install` would have placed them; the commands of both go into `node_modules/.bin`.
 * @example
 * installPacked(await packedTarball(), dir, [...runtimeDependencies, 'vitest', 'vite']);
 */
export function installPacked(
  tarball: string,
  project: string,
  dependencies: readonly string[],
): void {
  const modules = join(project, 'node_modules');
  const { name } = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as Manifest;
  const installed = join(modules, name);
  mkdirSync(installed, { recursive: true });
  // The tarball's single top folder is `package/`.
  execFileSync('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  linkBins(modules, name);
  for (const dep of new Set(dependencies)) {
    if (existsSync(join(modules, dep))) continue;
    const source = join(repoRoot, 'node_modules', dep);
    if (!existsSync(source))
      throw new Error(`${dep} is not installed in ${repoRoot}node_modules; run npm ci there`);
    mkdirSync(dirname(join(modules, dep)), { recursive: true });
    symlinkSync(source, join(modules, dep), 'dir');
    linkBins(modules, dep);
  }
}

/** A `seahaven serve` started as a child process. */
export interface ServingProcess {
  /** The URL its banner printed (`http://<host>:<port>`). */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** SIGTERM, then wait for it to exit; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Run `command` (a `seahaven serve …` however it is spelled: the bin, `sh -c …`) in `cwd` and wait until its banner
 * names the URL it serves on. Fails with what it printed if it exits first or prints nothing within `timeoutMs`.
 * @example
 * const served = await startServing(project, ['node_modules/.bin/seahaven', 'serve', 'crm', '--port', '0']);
 */
export function startServing(
  cwd: string,
  command: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 60_000,
): Promise<ServingProcess> {
  const child = spawn(command[0], command.slice(1), {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command.join(' ')} printed no URL within ${timeoutMs} ms:\n${printed}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      const m = /^seahaven serve: .* at (http:\/\/\S+)$/m.exec(printed);
      if (m === null) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.on('data', (c: Buffer) => (printed += c.toString('utf8')));
      resolve({
        url: m[1],
        output: () => printed,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (printed += c.toString('utf8')));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${command.join(' ')} exited (${code}) before serving:\n${printed}`));
    });
  });
}
