/**
 * The process's memory budget (`--max-memory`): what a new session, a reset or a fork would cost is estimated before it
 * is done, and refused with `RESOURCE_EXHAUSTED` when it would not fit beside what the process already holds. Counts of
 * sessions alone let 535 held forks of a written `small_startup` Stripe episode (11 MiB each), or 7 writing sessions on
 * `big_co` (748 MiB each), run the process out of memory, and the kernel then ended it with every session.
 *
 * What the process holds is its resident set (`process.memoryUsage.rss()`), read at each admission. Memory admitted a
 * moment ago may not be resident yet (an episode opens its database at its first call), so admissions are also counted
 * as pending until the resident set has grown by as much, or for `PENDING_MS`.
 */
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { ToolError } from '../../core/errors.ts';
import { fixtureFootprint } from '../../core/fixtures.ts';
import type { Instance } from '../../core/instance.ts';
import { openBytes } from '../../core/instance-internals.ts';
import type { World } from '../../core/world.ts';
import { MemoryRefusal } from './errors.ts';

const MiB = 1024 * 1024;

/**
 * What each kind of admission costs, as multiples of the database bytes it concerns (measured: docs/reliability.md).
 * - `load`: a fixture not loaded yet: its file's bytes and SQLite's copy of them while the capture triggers are added
 *   (what the process holds after is the reset image, its starting rows read from the file);
 * - `open`: an episode's database opened from an image: SQLite's copy, its page cache and the rollback journal of
 *   what the episode rewrites;
 * - `fork`: a held fork: the snapshot of its databases, kept as bytes until a reset adopts it.
 */
export const COST_FACTORS = { load: 2, open: 1.25, fork: 1.05 };

/** Memory every session costs beyond its databases: its instance, history and connection's statements. */
export const SESSION_OVERHEAD_BYTES = 2 * MiB;

/** How long an admission counts as pending when the resident set has not grown by as much. */
const PENDING_MS = 10_000;

/** Above this a cgroup's limit means "no limit" (cgroup v1 writes 2^63 rounded down to a page). */
const NO_LIMIT = 2 ** 60;

function readNumber(file: string): number | null {
  try {
    const text = readFileSync(file, 'utf8').trim();
    if (text === 'max') return null;
    const n = Number(text);
    return Number.isFinite(n) && n > 0 && n < NO_LIMIT ? n : null;
  } catch {
    return null;
  }
}

/** The memory limit of the cgroup this process runs in (v2 `memory.max`, v1 `memory.limit_in_bytes`), or its parents'; null when none is set. */
export function cgroupLimit(
  procCgroup = '/proc/self/cgroup',
  root = '/sys/fs/cgroup',
): number | null {
  let lines: string[];
  try {
    lines = readFileSync(procCgroup, 'utf8').split('\n');
  } catch {
    return null;
  }
  const limits: number[] = [];
  for (const line of lines) {
    const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
    if (path === undefined) continue;
    const v2 = controllers === '';
    if (!v2 && !controllers.split(',').includes('memory')) continue;
    const base = v2 ? root : `${root}/memory`;
    const file = v2 ? 'memory.max' : 'memory.limit_in_bytes';
    // A container sees its own cgroup as the root of the mount, so its path may not exist there: the root's file is its limit.
    for (let dir = path.replace(/\/+$/, ''); ; dir = dir.slice(0, dir.lastIndexOf('/'))) {
      const n = readNumber(`${base}${dir}/${file}`);
      if (n !== null) limits.push(n);
      if (dir === '') break;
    }
  }
  return limits.length === 0 ? null : Math.min(...limits);
}

/** The default `--max-memory`: 90% of the cgroup's limit when one is set, else 75% of the machine's memory; and where it came from. */
export function defaultMemoryBudget(): { bytes: number; source: string } {
  const limit = cgroupLimit();
  if (limit !== null)
    return {
      bytes: Math.floor(limit * 0.9),
      source: `90% of the cgroup's memory limit of ${Math.round(limit / MiB)} MiB`,
    };
  const total = totalmem();
  return {
    bytes: Math.floor(total * 0.75),
    source: `75% of the machine's ${Math.round(total / MiB)} MiB`,
  };
}

export class MemoryBudget {
  readonly maxBytes: number;
  private readonly resident: () => number;
  /** Bytes admitted that the resident set may not show yet, as of `lastResident` and `lastAt`. */
  private pending = 0;
  private lastResident = 0;
  private lastAt = -Infinity;

  constructor(maxBytes: number, resident: () => number = () => process.memoryUsage.rss()) {
    this.maxBytes = maxBytes;
    this.resident = resident;
  }

  /** Bytes left for admissions now: the budget less what the process holds and what was admitted but is not resident yet. */
  available(): number {
    const rss = this.resident();
    this.settle(rss, performance.now());
    return this.maxBytes - rss - this.pending;
  }

  private settle(rss: number, now: number): void {
    if (now - this.lastAt > PENDING_MS) this.pending = 0;
    else this.pending = Math.max(0, this.pending - Math.max(0, rss - this.lastResident));
    this.lastResident = rss;
  }

  /** Throw a `MemoryRefusal` for `what` (like "fork this episode") unless `bytes` more fit now; nothing is counted. */
  check(what: string, bytes: number): void {
    const available = this.available();
    if (bytes > available)
      throw new MemoryRefusal(
        what,
        Math.ceil(bytes / MiB),
        Math.max(0, Math.floor(available / MiB)),
        Math.round(this.maxBytes / MiB),
      );
  }

  /** `check`, then count `bytes` as pending: memory about to be spent that the resident set does not show yet. */
  admit(what: string, bytes: number): void {
    this.check(what, bytes);
    this.pending += bytes;
    this.lastAt = performance.now();
  }
}

/**
 * What an episode of `fixture` needs before it starts: loading the fixture when no episode has yet, and opening its
 * database. Checked, not reserved: loading shows in the resident set at once, and opening is weighed again when it
 * happens (`admitOpening`).
 */
export function episodeCost(world: World, fixture: string | null | undefined): number {
  const { bytes, loaded, openBytes } =
    fixture === null || fixture === undefined
      ? { bytes: 0, loaded: true, openBytes: 0 }
      : fixtureFootprint(world, fixture);
  // Opening copies the images, or on copy-on-write bases (big fixtures) adds a page cache per store.
  return (
    Math.ceil(bytes * (loaded ? 0 : COST_FACTORS.load) + openBytes * COST_FACTORS.open) +
    SESSION_OVERHEAD_BYTES
  );
}

/** What a fork of `inst` needs: a copy of the databases it holds open (sleeping stores share their images). */
export function forkCost(inst: Instance): number {
  return Math.ceil(inst[openBytes]() * COST_FACTORS.fork) + SESSION_OVERHEAD_BYTES;
}

/**
 * `InstanceOptions.admitOpen` for a server with a budget: opening an episode's database from an image of `bytes` bytes
 * (at its first call, or a read of its state; SQLite copies the image) is admitted as pending memory. A refusal fails
 * that call (or read) with `resource_exhausted`, which can be retried.
 */
export function admitOpening(memory: MemoryBudget, bytes: number): void {
  try {
    memory.admit("open this episode's database", Math.ceil(bytes * COST_FACTORS.open));
  } catch (e) {
    if (!(e instanceof MemoryRefusal)) throw e;
    throw new ToolError('resource_exhausted', e.message, {
      needed_mb: e.neededMb,
      available_mb: e.availableMb,
      option: '--max-memory',
    });
  }
}
