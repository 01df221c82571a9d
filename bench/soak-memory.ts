/**
 * The soak's view of its server's memory (soak.ts): the resident set read from `/proc`, what the server says it holds
 * (soak-probe.mjs, loaded into it), and the trend of the resident set once the server has warmed up: the least-squares
 * slope over the samples from `--trend-from` minutes on, and the band they span. A soak whose slope passes its bound
 * (`--max-rss-slope`, 3 MiB per minute unless told) fails: the server's memory keeps growing under a load that does not.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** What the server process says of its memory at one moment (soak-probe.mjs), in MiB. */
export interface ProbeLine {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Open sessions by transport (`ws`, `http-key` for a Stripe key's account, `mcp-http`, …). */
  byOwner: Record<string, number>;
  /** Sessions holding open SQLite connections (the others sleep: their images kept as bytes). */
  awake: number;
  forks: number;
}

export interface RssSample {
  /** Seconds since the load started. */
  at: number;
  /** Resident set size of the server process, in MiB (NaN where /proc is not available). */
  mib: number;
  /** The server's own account at about that moment, when its probe has written one. */
  probe?: ProbeLine;
}

/** The resident set's trend from `fromMinute` on: the least-squares slope (MiB per minute) and the band's ends. */
export interface RssTrend {
  fromMinute: number;
  samples: number;
  slopeMibPerMin: number;
  min: number;
  max: number;
}

/** The probe module the soak loads into its server. */
export const PROBE_MODULE = fileURLToPath(new URL('./soak-probe.mjs', import.meta.url));

export function vmRssMib(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The last line the probe wrote to `file`, or undefined before its first. */
export function lastProbe(file: string): ProbeLine | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.trimEnd().split('\n');
  const last = lines[lines.length - 1];
  return last === '' ? undefined : (JSON.parse(last) as ProbeLine);
}

/** The trend of the samples taken from `fromMinute` on; null with fewer than three of them. */
export function rssTrend(samples: readonly RssSample[], fromMinute: number): RssTrend | null {
  const points = samples
    .filter((s) => s.at >= fromMinute * 60 && Number.isFinite(s.mib))
    .map((s) => ({ x: s.at / 60, y: s.mib }));
  if (points.length < 3) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / points.length;
  const my = points.reduce((a, p) => a + p.y, 0) / points.length;
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return {
    fromMinute,
    samples: points.length,
    slopeMibPerMin: sxy / sxx,
    min: Math.min(...points.map((p) => p.y)),
    max: Math.max(...points.map((p) => p.y)),
  };
}

/** One sample as a progress line's memory part: RSS, then the heap, what lies outside it, and the sessions. */
export function formatSample(s: RssSample): string {
  const p = s.probe;
  if (p === undefined) return `RSS ${s.mib.toFixed(1)} MiB`;
  const owners = Object.entries(p.byOwner)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(' ');
  return `RSS ${s.mib.toFixed(1)} MiB (heap ${p.heapUsed.toFixed(0)}/${p.heapTotal.toFixed(0)}, external ${p.external.toFixed(0)}, buffers ${p.arrayBuffers.toFixed(0)})  sessions ${owners || 'none'}, ${p.awake} awake`;
}

/** The trend as the report prints it: slope against its bound, and the band. */
export function formatTrend(r: { rss: { trend: RssTrend | null; maxSlope: number } }): string {
  const t = r.rss.trend;
  if (t === null) return 'too short for a trend (fewer than 3 samples from its starting minute)';
  const slope = `${t.slopeMibPerMin >= 0 ? '+' : ''}${t.slopeMibPerMin.toFixed(2)} MiB/min`;
  const verdict = t.slopeMibPerMin <= r.rss.maxSlope ? 'within' : 'PAST';
  return `from minute ${t.fromMinute}: slope ${slope} (${verdict} the bound of ${r.rss.maxSlope}), band ${t.min.toFixed(1)} to ${t.max.toFixed(1)} MiB (${(t.max - t.min).toFixed(1)}) over ${t.samples} samples`;
}
