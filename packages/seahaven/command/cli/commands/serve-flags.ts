/** The flags of `seahaven serve` and how their values are read: whole numbers, seconds, and default fixtures. */
import { CliError } from '../errors.ts';
import type { World } from '../../../core/world.ts';

export interface ServeFlags {
  host: string;
  port: string;
  maxSessions?: string;
  sessionTimeout?: string;
  hibernateAfter?: string;
  forkTtlMs?: string;
  token?: string;
  graderToken?: string;
  fixture: string[];
  maxFrameBytes?: string;
  maxBodyBytes?: string;
  bodyTimeout?: string;
  slowCallMs?: string;
  allowHost: string[];
  allowOrigin: string[];
  runsDb?: string;
  curriculaDb?: string;
  console: boolean;
  workers?: string;
  maxCallLogMb?: string;
  maxEpisodeDbMb?: string;
  maxMemory?: string;
  heapGrowth?: string;
}

export function wholeNumber(
  flag: string,
  value: string | undefined,
  min: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new CliError(`${flag} must be a whole number >= ${min}; got "${value}"`, 2);
  return n;
}

export const collect = (value: string, acc: string[]) => [...acc, value];

/**
 * A flag's number of seconds, fractions allowed (`0.5`), in milliseconds (a positive value is at least 1 ms). `zero`
 * says what 0 is: `never` (an idle timeout that never fires) or `refused` (a deadline must be > 0).
 */
export function seconds(
  flag: string,
  value: string | undefined,
  zero: 'never' | 'refused',
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  const min = zero === 'never' ? 0 : Number.MIN_VALUE;
  if (value.trim() === '' || !Number.isFinite(n) || n < min)
    throw new CliError(
      zero === 'never'
        ? `${flag} must be a number of seconds >= 0, like 900 or 0.5 (0 never); got "${value}"`
        : `${flag} must be a number of seconds > 0, like 10 or 0.5; got "${value}"`,
      2,
    );
  return n === 0 ? 0 : Math.max(1, Math.round(n * 1000));
}

/** `--fixture small_startup` sets the first world's default; `--fixture crm=small_startup` names the world. */
export function defaultFixtures(specs: string[], worlds: World[]): Record<string, string> {
  // Keyed by world name, so no inherited key (a world named "constructor") may read as a fixture.
  const out: Record<string, string> = Object.create(null);
  for (const spec of specs) {
    const [world, fixture] = spec.includes('=') ? spec.split('=', 2) : [worlds[0].name, spec];
    const w = worlds.find((x) => x.name === world);
    if (!w)
      throw new CliError(
        `--fixture ${spec}: no world "${world}" is being served (${worlds.map((x) => x.name).join(', ')})`,
        2,
      );
    if (!Object.hasOwn(w.fixtures, fixture))
      throw new CliError(
        `--fixture ${spec}: world "${world}" has no fixture "${fixture}"; its fixtures are ${Object.keys(w.fixtures).join(', ') || '(none)'}`,
        2,
      );
    out[world] = fixture;
  }
  return out;
}
