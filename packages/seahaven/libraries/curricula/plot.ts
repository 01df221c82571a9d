/**
 * An SVG chart of a run: the rolling success rate and the stage over recorded outcomes, with each stage's promotion
 * threshold and the stage changes marked. Hand-written SVG, no dependencies, deterministic output.
 */
import type { RunProgress } from './progress.ts';

export interface PlotOptions {
  /** Rolling window in outcomes. Default: the first stage's promotion window. */
  window?: number;
  width?: number;
  height?: number;
}

interface Point {
  x: number;
  rate: number;
  stage: number;
}

const MAX_POINTS = 1500;

function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function fmt(n: number): string {
  return (Math.round(n * 10) / 10).toString();
}

/** Round tick spacing: 1, 2 or 5 times a power of ten, about `target` ticks over `span`. */
function tickStep(span: number, target: number): number {
  const raw = span / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
}

/** The rolling success rate and stage after each recorded outcome, in recording order. */
export function progressCurve(progress: RunProgress, window: number): Point[] {
  const outcomes = progress.history
    .filter((h) => h.status === 'recorded')
    .sort((a, b) => a.outcome! - b.outcome!);
  const transitions = progress.transitions.filter((t) => t.kind !== 'master');
  const points: Point[] = [];
  let stage = 0,
    t = 0,
    passes = 0;
  outcomes.forEach((h, i) => {
    passes += h.passed ? 1 : 0;
    if (i >= window) passes -= outcomes[i - window].passed ? 1 : 0;
    while (t < transitions.length && transitions[t].outcome <= h.outcome!)
      stage = transitions[t++].to.index;
    points.push({ x: h.outcome!, rate: passes / Math.min(i + 1, window), stage });
  });
  return points;
}

/**
 * Draw a run's progress as an SVG document. Needs the run's full history (`progress(…)` without a history limit).
 * @example
 * writeFileSync('run.svg', plotProgress(runs.progress('basics', 'run-1')));
 */
export function plotProgress(progress: RunProgress, options: PlotOptions = {}): string {
  const width = options.width ?? 760,
    height = options.height ?? 380;
  const window = options.window ?? progress.stages[0].promote.window;
  const left = 56,
    right = 130,
    top = 44,
    bottom = 62;
  const w = width - left - right,
    h = height - top - bottom;
  const all = progressCurve(progress, window);
  const every = Math.max(1, Math.ceil(all.length / MAX_POINTS));
  const points = all.filter((_, i) => i % every === 0 || i === all.length - 1);
  const n = all.length === 0 ? 1 : all[all.length - 1].x;
  const stages = progress.stage_count;
  const X = (x: number) => left + (n <= 1 ? 0 : ((x - 1) / (n - 1)) * w);
  const Y = (rate: number) => top + (1 - rate) * h;
  const S = (stage: number) => top + h - ((stage + 0.5) / stages) * h;

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="11">`,
  );
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(
    `<text x="${left}" y="20" font-size="14" font-weight="600">${esc(`${progress.curriculum} · run ${progress.run_id}`)}</text>`,
  );
  out.push(
    `<text x="${left}" y="35" fill="#555">${esc(`world ${progress.world} · ${progress.episodes.recorded} outcomes · stage ${progress.stage.index + 1}/${stages} (${progress.stage.name})${progress.mastered ? ' · mastered' : ''}`)}</text>`,
  );
  for (const r of [0, 0.25, 0.5, 0.75, 1]) {
    out.push(
      `<line x1="${left}" x2="${left + w}" y1="${fmt(Y(r))}" y2="${fmt(Y(r))}" stroke="#e5e5e5"/>`,
    );
    out.push(
      `<text x="${left - 6}" y="${fmt(Y(r) + 4)}" text-anchor="end" fill="#555">${r * 100}%</text>`,
    );
  }
  for (const s of progress.stages)
    out.push(
      `<text x="${left + w + 8}" y="${fmt(S(s.index) + 4)}" fill="#c2410c">${esc(`${s.index + 1} ${s.name}`)}</text>`,
    );
  const step = tickStep(Math.max(1, n - 1), 6);
  for (let x = Math.ceil(1 / step) * step; x <= n; x += step) {
    out.push(
      `<line x1="${fmt(X(x))}" x2="${fmt(X(x))}" y1="${top + h}" y2="${top + h + 4}" stroke="#555"/>`,
    );
    out.push(
      `<text x="${fmt(X(x))}" y="${top + h + 16}" text-anchor="middle" fill="#555">${x}</text>`,
    );
  }
  out.push(
    `<text x="${left + w}" y="${top + h + 30}" text-anchor="end" fill="#333">outcomes recorded</text>`,
  );
  out.push(`<rect x="${left}" y="${top}" width="${w}" height="${h}" fill="none" stroke="#999"/>`);

  if (points.length === 0) {
    out.push(
      `<text x="${left + w / 2}" y="${top + h / 2}" text-anchor="middle" fill="#777">no outcomes yet</text>`,
    );
  } else {
    // Each stage's promotion threshold, dashed, over the span the run spent in it.
    let spanStart = 0;
    for (let i = 1; i <= all.length; i++) {
      if (i < all.length && all[i].stage === all[spanStart].stage) continue;
      const rule = progress.stages[all[spanStart].stage].promote.successRate;
      out.push(
        `<line x1="${fmt(X(all[spanStart].x))}" x2="${fmt(X(all[i - 1].x))}" y1="${fmt(Y(rule))}" y2="${fmt(Y(rule))}" stroke="#2563eb" stroke-dasharray="4 3" opacity="0.6"/>`,
      );
      spanStart = i;
    }
    progress.transitions.forEach((t, k) => {
      const x = X(t.outcome);
      // Labels sit inside the plot in three staggered rows, haloed, so close transitions stay readable.
      const anchor = x > left + w - 90 ? 'end' : 'start';
      out.push(
        `<line x1="${fmt(x)}" x2="${fmt(x)}" y1="${top}" y2="${top + h}" stroke="#888" stroke-dasharray="2 3"/>`,
      );
      out.push(
        `<text x="${fmt(anchor === 'start' ? x + 3 : x - 3)}" y="${top + 12 + (k % 3) * 12}" text-anchor="${anchor}" font-size="10" fill="#333" stroke="#fff" stroke-width="3" paint-order="stroke">${esc(t.kind === 'master' ? 'mastered' : `${t.kind === 'promote' ? '▲' : '▼'} ${t.to.name}`)}</text>`,
      );
    });
    let stagePath = `M${fmt(X(all[0].x))} ${fmt(S(all[0].stage))}`;
    for (let i = 1; i < all.length; i++)
      if (all[i].stage !== all[i - 1].stage)
        stagePath += ` H${fmt(X(all[i].x))} V${fmt(S(all[i].stage))}`;
    stagePath += ` H${fmt(X(all[all.length - 1].x))}`;
    out.push(`<path d="${stagePath}" fill="none" stroke="#ea580c" stroke-width="2"/>`);
    const ratePath = points
      .map((p, i) => `${i === 0 ? 'M' : 'L'}${fmt(X(p.x))} ${fmt(Y(p.rate))}`)
      .join(' ');
    out.push(`<path d="${ratePath}" fill="none" stroke="#2563eb" stroke-width="1.5"/>`);
  }
  const ly = height - 12;
  out.push(
    `<line x1="${left}" x2="${left + 18}" y1="${ly}" y2="${ly}" stroke="#2563eb" stroke-width="1.5"/><text x="${left + 22}" y="${ly + 4}">success rate (rolling ${window})</text>`,
  );
  out.push(
    `<line x1="${left + 190}" x2="${left + 208}" y1="${ly}" y2="${ly}" stroke="#ea580c" stroke-width="2"/><text x="${left + 212}" y="${ly + 4}">stage</text>`,
  );
  out.push(
    `<line x1="${left + 260}" x2="${left + 278}" y1="${ly}" y2="${ly}" stroke="#2563eb" stroke-dasharray="4 3"/><text x="${left + 282}" y="${ly + 4}">promotion threshold</text>`,
  );
  out.push('</svg>');
  return out.join('\n') + '\n';
}
