import { expect, it } from 'vitest';
import { findPython } from './python-client.ts';
import { formatTrlRollouts, runTrlRolloutsBench } from './trl-rollouts.ts';

const python = findPython();
if (python === undefined)
  process.stderr.write(
    'bench/trl-rollouts: skipped, no python3 with websockets (apt-get install -y python3-websockets)\n',
  );

// A smoke run: both loops play their rollouts to reward 1 and the table is written. Figures are judged in bench/results.md.
it.skipIf(python === undefined)(
  'the TRL rollout benchmark runs both loops',
  async () => {
    const r = await runTrlRolloutsBench({ smoke: true });
    for (const loop of [...r.typescript, ...r.trl]) {
      expect(loop.timesUs).toHaveLength(r.rollouts);
      expect(loop.rewards).toEqual(Array(r.rollouts).fill(1));
    }
    expect(formatTrlRollouts(r)).toContain('| TRL (`seahaven_client.trl`) |');
  },
  120_000,
);
