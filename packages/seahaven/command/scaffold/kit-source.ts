/**
 * Where a scaffolded project gets the kit from. A kit installed from the npm registry is depended on by version, like
 * any package. Any other kit (a clone of the repository, or a copy installed from a path or a tarball) is packed with
 * `npm pack` into a tarball inside the new project, and the project depends on that file, so `npm install` works
 * anywhere, with or without a registry copy of `seahaven`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The root of the kit this code runs from. */
export const KIT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How the kit at `root` was installed: from the registry, or from anything else (a clone, a path, a tarball). */
export function kitOrigin(
  root = KIT_ROOT,
): { from: 'registry'; version: string } | { from: 'local'; installed: boolean } {
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const modules = dirname(root.replace(/[\\/]+$/, ''));
  if (basename(modules) !== 'node_modules') return { from: 'local', installed: false };
  // npm records what it installed, and from where, in node_modules/.package-lock.json.
  const lock = join(modules, '.package-lock.json');
  if (existsSync(lock)) {
    const packages =
      (
        JSON.parse(readFileSync(lock, 'utf8')) as {
          packages?: Record<string, { resolved?: string; link?: boolean }>;
        }
      ).packages ?? {};
    const entry = packages[`node_modules/${name}`];
    // A registry copy records its tarball's URL, or nothing where npm is set to omit-lockfile-registry-resolved.
    if (
      entry !== undefined &&
      entry.link !== true &&
      (entry.resolved === undefined || /^https?:\/\//.test(entry.resolved))
    )
      return { from: 'registry', version };
  }
  return { from: 'local', installed: true };
}

/**
 * Pack the kit into `dir` and return the tarball's file name. A clone is built first (its `prepare` script, about
 * 30 s); an installed copy is packed as it is, since it ships its build.
 * @example
 * const file = await packKit('/home/me/my-world'); // 'seahaven-0.1.0.tgz'
 */
export async function packKit(dir: string, root = KIT_ROOT): Promise<string> {
  const origin = kitOrigin(root);
  const installed = origin.from === 'registry' || origin.installed;
  let stdout: string;
  try {
    ({ stdout } = await run(
      'npm',
      ['pack', '--pack-destination', dir, '--silent', ...(installed ? ['--ignore-scripts'] : [])],
      {
        cwd: root,
        env: {
          ...process.env,
          npm_config_fund: 'false',
          npm_config_audit: 'false',
          npm_config_update_notifier: 'false',
        },
        maxBuffer: 16 * 1024 * 1024,
      },
    ));
  } catch (e) {
    const err = e as Error & { stderr?: string };
    throw new Error(
      `npm pack of the kit at ${root} failed; run \`npm pack\` there to see why, or pass --kit <version|path|tarball>:\n${err.stderr ?? err.message}`,
    );
  }
  const file = stdout.trim().split('\n').pop() ?? '';
  if (!file.endsWith('.tgz') || !existsSync(join(dir, file)))
    throw new Error(
      `npm pack of the kit at ${root} wrote no tarball into ${dir} (it printed: ${stdout.trim()})`,
    );
  return file;
}
