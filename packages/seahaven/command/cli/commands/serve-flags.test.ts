import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.ts';
import { seconds } from './serve-flags.ts';

// `--session-timeout` and `--hibernate-after` take seconds: whole or fractional, 0 for never (`--body-timeout`, whose
// 0 is refused, is checked through the command in transports/serve/access.test.ts).
describe('idle flags of seahaven serve', () => {
  it('read whole and fractional seconds as milliseconds, and 0 as never', () => {
    expect(seconds('--session-timeout', undefined, 'never')).toBeUndefined();
    expect(seconds('--session-timeout', '900', 'never')).toBe(900_000);
    expect(seconds('--session-timeout', '0.5', 'never')).toBe(500);
    expect(seconds('--hibernate-after', '0', 'never')).toBe(0);
  });

  it('refuse what is not a number of seconds >= 0, naming the flag and the value', () => {
    for (const bad of ['-1', 'abc', '', ' ', 'Infinity', '1s']) {
      let error: unknown;
      try {
        seconds('--session-timeout', bad, 'never');
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(2);
      expect((error as CliError).message).toBe(
        `--session-timeout must be a number of seconds >= 0, like 900 or 0.5 (0 never); got "${bad}"`,
      );
    }
  });
});
