/**
 * A throwaway PostgreSQL server for tests, from Debian's packages (`apt-get install -y postgresql`): a cluster in a
 * temporary folder (`initdb`), started with `pg_ctl` on a free port of 127.0.0.1 with its socket in that folder, trust
 * authentication for the user `seahaven`, no fsync. Run as root, it runs as the `postgres` user (initdb refuses root).
 * `stop()` stops it and deletes the folder.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export const INSTALL = 'apt-get install -y postgresql';

export type TestPostgres = { url: string; stop(): void } | { skip: string };

/** The newest Debian PostgreSQL with initdb and pg_ctl, like /usr/lib/postgresql/15/bin. */
function binDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'initdb')) && existsSync(join(base, v, 'bin', 'pg_ctl')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(base, versions[0], 'bin');
}


/**
 * Start a throwaway PostgreSQL server, or say why not (`{ skip }`).
 * @example
 * const pg = await startPostgres();
 * if ('url' in pg) { … pg.url …; pg.stop(); }
 */
export async function startPostgres(): Promise<TestPostgres> {
  const bin = binDir();
  if (bin === undefined) return { skip: 'PostgreSQL is not installed (no /usr/lib/postgresql/<version>/bin/initdb)' };
  const root = process.getuid?.() === 0;
  let as: string[] = [];
  let owner: { uid: number; gid: number } | undefined;
  if (root) {
    try {
      owner = { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) };
    } catch {
      return { skip: 'running as root and there is no "postgres" user to run PostgreSQL as' };
    }
    as = ['runuser', '-u', 'postgres', '--'];
  }
  const dir = mkdtempSync(join(tmpdir(), 'seahaven-pg-'));
  const data = join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const [file, ...rest] = [...as, join(bin, cmd), ...args];
    execFileSync(file, rest, { stdio: 'pipe', timeout: 30_000 });
  };
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const port = await freePort();
    run('initdb', ['-D', data, '-U', 'seahaven', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--locale=C']);
    run('pg_ctl', ['start', '-D', data, '-w', '-t', '20', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`]);
    let stopped = false;
    const stop = () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', stop);
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // A test run that ends without calling stop() still takes its server down.
    process.once('exit', stop);
    return { url: `postgres://seahaven@127.0.0.1:${port}/postgres`, stop };
  } catch (e) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8').trim().split('\n').at(-1) : '';
    const err = e as { stderr?: Buffer; message: string };
    rmSync(dir, { recursive: true, force: true });
    return { skip: `PostgreSQL would not start: ${(err.stderr?.toString().trim() || err.message).split('\n')[0]}${log ? ` (${log})` : ''}` };
  }
}
