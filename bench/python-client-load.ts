/**
 * The TypeScript side of the Python client benchmark (bench/python-client.ts): `sessions` `SeahavenClient`s on one
 * event loop, each a closed loop of crm `add_lead` episodes (reset, three calls, state, submit), the loop
 * bench/python-client.py runs with the Python client. Prints one JSON line: requests answered in the measured
 * window, episodes, latency percentiles.
 *
 * Run: `node --conditions=@seahaven/source --import tsx bench/python-client-load.ts <base_url> <sessions> <warmup_ms> <duration_ms>`.
 */
import { SeahavenClient } from 'seahaven/client';

export const ADD_LEAD = {
  name: 'Ada Lovelace',
  email: 'ada.lovelace@acmerobotics.example',
  company_id: 'cmp_acme',
  title: 'Head of Research',
  stage: 'lead',
};

export interface LoadResult {
  client: string;
  sessions: number;
  /** Requests (reset, call, state, submit) answered within the measured window. */
  steps: number;
  episodes: number;
  windowS: number;
  errors: number;
  /** CPU seconds the client process used in the measured window. */
  cpuS: number;
  p50Us: number;
  p99Us: number;
}

async function main(): Promise<void> {
  const [url, sessionsArg, warmupArg, durationArg] = process.argv.slice(2);
  const sessions = Number(sessionsArg);
  const clients = await Promise.all(
    Array.from({ length: sessions }, () => SeahavenClient.connect(url)),
  );
  const start = performance.now();
  const from = start + Number(warmupArg);
  const end = from + Number(durationArg);
  const latencies: number[] = [];
  let steps = 0;
  let episodes = 0;
  let errors = 0;
  const timed = async <T>(p: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const r = await p();
    const t1 = performance.now();
    if (t1 >= from && t1 < end) {
      steps++;
      latencies.push((t1 - t0) * 1000);
    }
    return r;
  };
  const cpuInWindow = async (): Promise<number> => {
    await new Promise((r) => setTimeout(r, Math.max(0, from - performance.now())));
    const before = process.cpuUsage();
    await new Promise((r) => setTimeout(r, Math.max(0, end - performance.now())));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6;
  };
  const [cpuS] = await Promise.all([
    cpuInWindow(),
    ...clients.map(async (env, i) => {
      for (let lap = 0; performance.now() < end; lap++) {
        await timed(() => env.reset({ task: 'add_lead', seed: i * 1_000_000 + lap }));
        await timed(() => env.call('search_contacts', { query: 'acme' }));
        await timed(() => env.call('get_company', { id: 'cmp_acme' }));
        const made = await timed(() => env.call('create_contact', ADD_LEAD));
        await timed(() => env.state());
        const { reward } = await timed(() => env.submit());
        if (!made.ok || reward !== 1) errors++;
        if (performance.now() < end && performance.now() >= from) episodes++;
      }
    }),
  ]);
  await Promise.all(clients.map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[
      Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))
    ] ?? NaN;
  const result: LoadResult = {
    client: 'typescript',
    sessions,
    steps,
    episodes,
    windowS: Number(durationArg) / 1000,
    errors,
    cpuS,
    p50Us: pct(50),
    p99Us: pct(99),
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
