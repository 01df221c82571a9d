/**
 * `report.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched) that opens offline. The
 * table of tasks; plots of pass^k by k, of each task's rewards, and of how often each criterion failed; and every
 * failed episode with its calls and the rows they changed, each step linking to that episode replayed up to it as a
 * live console session (those links work when `seahaven eval --serve DIR` serves the page).
 */
import type { EpisodeRecord } from './agent.ts';
import type { EvalSummary } from './summary.ts';

export function escapeHtml(text: unknown): string {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

/** A line plot of pass^k by k: one line per task (grey) and the mean over tasks (dark). */
function passKPlot(summary: EvalSummary): string {
  const w = 520,
    h = 240,
    left = 44,
    right = 12,
    top = 12,
    bottom = 34;
  const kmax = Math.max(1, ...summary.tasks.map((t) => t.trials));
  const x = (k: number) =>
    left + (kmax === 1 ? (w - left - right) / 2 : ((k - 1) / (kmax - 1)) * (w - left - right));
  const y = (v: number) => top + (1 - v) * (h - top - bottom);
  const line = (curve: Record<string, number>, cls: string, label: string) => {
    const pts = Object.entries(curve).map(
      ([k, v]) => `${x(Number(k)).toFixed(1)},${y(v).toFixed(1)}`,
    );
    const dots = Object.entries(curve)
      .map(
        ([k, v]) =>
          `<circle class="${cls}" cx="${x(Number(k)).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"><title>${escapeHtml(label)}: pass^${k} = ${fmt(v)}</title></circle>`,
      )
      .join('');
    return `<polyline class="${cls}" fill="none" points="${pts.join(' ')}"/>${dots}`;
  };
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (v) =>
        `<line class="grid" x1="${left}" x2="${w - right}" y1="${y(v)}" y2="${y(v)}"/><text x="${left - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
    )
    .join('');
  const ticks = Array.from({ length: kmax }, (_, i) => i + 1)
    .filter((k) => kmax <= 12 || k % Math.ceil(kmax / 12) === 1)
    .map((k) => `<text x="${x(k)}" y="${h - bottom + 16}" text-anchor="middle">${k}</text>`)
    .join('');
  const lines =
    summary.tasks.map((t) => line(t.pass_k, 'task', t.task)).join('') +
    line(summary.overall.pass_k, 'overall', 'all tasks');
  return `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="pass^k by k">${grid}${ticks}<text x="${(left + w - right) / 2}" y="${h - 4}" text-anchor="middle">k</text>${lines}</svg>`;
}

/** Each task's rewards as a strip of dots on [0, 1], with the mean marked. */
function rewardPlot(summary: EvalSummary, records: readonly EpisodeRecord[]): string {
  const row = 26,
    left = 170,
    w = 520,
    top = 8;
  const h = top + row * summary.tasks.length + 24;
  const x = (v: number) => left + v * (w - left - 12);
  const rows = summary.tasks
    .map((t, i) => {
      const yy = top + i * row + row / 2;
      const eps = records.filter((r) => r.task === t.task);
      const dots = eps
        .map(
          (e, j) =>
            `<circle class="${e.passed ? 'pass' : 'fail'}" cx="${x(e.reward).toFixed(1)}" cy="${(yy + ((j % 5) - 2) * 2).toFixed(1)}" r="3.5"><title>${escapeHtml(e.episode_id)}: reward ${fmt(e.reward)}</title></circle>`,
        )
        .join('');
      return `<text x="${left - 8}" y="${yy + 4}" text-anchor="end">${escapeHtml(t.task)}</text><line class="grid" x1="${x(0)}" x2="${x(1)}" y1="${yy}" y2="${yy}"/>${dots}<line class="mean" x1="${x(t.mean_reward)}" x2="${x(t.mean_reward)}" y1="${yy - 9}" y2="${yy + 9}"><title>mean ${fmt(t.mean_reward)}</title></line>`;
    })
    .join('');
  const axis = [0, 0.5, 1]
    .map((v) => `<text x="${x(v)}" y="${h - 6}" text-anchor="middle">${v}</text>`)
    .join('');
  return `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="reward distribution per task">${rows}${axis}</svg>`;
}

/** Bars: for each criterion (over all tasks), the episodes where it scored below 1. */
function criterionPlot(summary: EvalSummary): string {
  const counts = new Map<string, number>();
  for (const t of summary.tasks)
    for (const [name, n] of Object.entries(t.criterion_failures))
      counts.set(`${t.task} · ${name}`, n);
  const entries = [...counts].sort((a, b) => b[1] - a[1]);
  if (entries.length === 0) return '<p>No criteria were graded.</p>';
  const row = 22,
    left = 300,
    w = 620,
    top = 6;
  const most = Math.max(1, ...entries.map((e) => e[1]));
  const h = top + row * entries.length + 6;
  const bars = entries
    .map(([name, n], i) => {
      const yy = top + i * row;
      const bw = (n / most) * (w - left - 40);
      return `<text x="${left - 8}" y="${yy + 15}" text-anchor="end">${escapeHtml(name.length > 46 ? name.slice(0, 45) + '…' : name)}</text><rect class="bar" x="${left}" y="${yy + 3}" width="${bw.toFixed(1)}" height="${row - 8}"><title>${escapeHtml(name)}: failed in ${n}</title></rect><text x="${left + bw + 6}" y="${yy + 15}">${n}</text>`;
    })
    .join('');
  return `<svg viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="failures per criterion">${bars}</svg>`;
}

function changeList(record: EpisodeRecord, call: number | undefined): string {
  const changes =
    call === undefined ? record.changes : record.change_log.filter((c) => c.call === call);
  if (changes.length === 0) return '<p class="quiet">no rows changed</p>';
  return `<ul class="changes">${changes.map((c) => `<li><b>${escapeHtml(c.op)}</b> ${escapeHtml(c.table)} ${escapeHtml(JSON.stringify(c.key))}${c.before ? ` <del>${escapeHtml(JSON.stringify(c.before))}</del>` : ''}${c.after ? ` <ins>${escapeHtml(JSON.stringify(c.after))}</ins>` : ''}</li>`).join('')}</ul>`;
}

function episodeSection(r: EpisodeRecord): string {
  const id = escapeHtml(r.episode_id);
  const criteria = r.criteria
    .map(
      (c) =>
        `<tr class="${c.score >= 1 ? 'ok' : 'bad'}"><td>${escapeHtml(c.name)}</td><td>${fmt(c.score)}</td><td>${fmt(c.weight)}</td><td>${escapeHtml(c.reason)}</td></tr>`,
    )
    .join('');
  let step = 0;
  const calls = r.calls
    .map((c) => {
      if (c.index !== undefined) step = c.index;
      const live = `<a class="live" href="replay/${encodeURIComponent(r.episode_id)}/${step}">open live at step ${step}</a>`;
      const outcome = c.ok
        ? `<pre>${escapeHtml(JSON.stringify(c.result))}</pre>`
        : `<pre class="err">${escapeHtml(c.error?.code)}: ${escapeHtml(c.error?.message)}</pre>`;
      return `<li><div><b>${c.index ?? '–'}</b> ${escapeHtml(c.tool)} <code>${escapeHtml(JSON.stringify(c.args))}</code> ${live}</div>${outcome}${c.index === undefined ? '' : changeList(r, c.index)}</li>`;
    })
    .join('');
  return `<section class="episode" id="ep-${id}"><h3>${id} <span class="${r.passed ? 'ok' : 'bad'}">reward ${fmt(r.reward)}${r.passed ? ', passed' : ', failed'}</span></h3>
<p>task ${escapeHtml(r.task)}, seed ${r.seed}, trial ${r.trial}; ${r.turns} turns, stopped: ${escapeHtml(r.stop)}${r.error ? ` (${escapeHtml(r.error)})` : ''}; <a class="live" href="replay/${encodeURIComponent(r.episode_id)}/0">open live from the start</a></p>
<table><tr><th>criterion</th><th>score</th><th>weight</th><th>reason</th></tr>${criteria}</table>
<h4>Net changes (the diff graded)</h4>${changeList(r, undefined)}
<h4>Calls</h4><ol class="calls">${calls || '<li>no calls</li>'}</ol></section>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}svg{display:block;margin:8px 0;font-size:11px}svg text{fill:#333}
.grid{stroke:#ddd}.task{stroke:#aab;fill:#aab}polyline.task{stroke-width:1.5}.overall{stroke:#124;fill:#124}polyline.overall{stroke-width:2.5}
circle.pass{fill:#2a7}circle.fail{fill:#c33}.mean{stroke:#124;stroke-width:2}.bar{fill:#c55}
.ok{color:#186}.bad{color:#b22}pre{background:#f7f7f7;padding:4px 6px;margin:2px 0;white-space:pre-wrap;word-break:break-all;max-height:12em;overflow:auto}
pre.err{background:#fdeeee}del{color:#a33}ins{color:#173;text-decoration:none;background:#e6f6ea}.quiet{color:#777}
.calls li{margin-bottom:8px}.episode{border-top:2px solid #ddd;margin-top:20px}a.live{font-size:12px;margin-left:6px}code{font-size:12px}`;

/** The report page of a run. */
export function renderReport(summary: EvalSummary, records: readonly EpisodeRecord[]): string {
  const s = summary.settings;
  const o = summary.overall;
  const ks = Object.keys(o.pass_k);
  const head = `<tr><th>task</th><th>trials</th><th>passed</th><th>mean reward</th>${ks.map((k) => `<th>pass^${k}</th>`).join('')}</tr>`;
  const rows = summary.tasks
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.task)}</td><td>${t.trials}</td><td>${t.successes}</td><td>${fmt(t.mean_reward)}</td>${ks.map((k) => `<td title="${escapeHtml(t.pass_k_exact[k] ?? '')}">${t.pass_k[k] === undefined ? '' : fmt(t.pass_k[k])}</td>`).join('')}</tr>`,
    )
    .join('');
  const total = `<tr><th>all ${o.tasks} tasks</th><th>${o.episodes}</th><th>${o.successes}</th><th>${fmt(o.mean_reward)}</th>${ks.map((k) => `<th title="${escapeHtml(o.pass_k_exact[k])}">${fmt(o.pass_k[k])}</th>`).join('')}</tr>`;
  const failed = records.filter((r) => !r.passed);
  const failedList = failed
    .map(
      (r) =>
        `<li><a href="#ep-${escapeHtml(r.episode_id)}">${escapeHtml(r.episode_id)}</a>: reward ${fmt(r.reward)}</li>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(s.model)} on ${escapeHtml(s.world.name)}: eval report</title><style>${STYLE}</style></head>
<body><h1>${escapeHtml(s.model)} on ${escapeHtml(s.world.name)} ${escapeHtml(s.world.version)}</h1>
<p>${o.successes} of ${o.episodes} episodes passed (${(100 * o.pass_rate).toFixed(1)}%), mean reward ${fmt(o.mean_reward)}. Seeds ${escapeHtml(s.seeds.join(', '))}, ${s.trials} trial(s) each, at most ${s.max_turns} turns${s.max_tokens === null ? '' : ` and ${s.max_tokens} tokens`}; model server ${escapeHtml(s.base_url)}${s.url ? `; world served at ${escapeHtml(s.url)}` : '; episodes in process'}.</p>
<h2>Tasks</h2><table>${head}${rows}${total}</table>
<h2>pass^k by k</h2><p class="quiet">The chance that k trials of a task all pass: C(successes, k) / C(trials, k); the dark line is the mean over tasks.</p>${passKPlot(summary)}
<h2>Rewards per task</h2><p class="quiet">One dot per episode (green passed, red failed); the bar is the mean.</p>${rewardPlot(summary, records)}
<h2>Failures per criterion</h2>${criterionPlot(summary)}
<h2>Failed episodes (${failed.length})</h2><p class="quiet">The "open live" links replay an episode up to that step as a console session when this page is served by <code>seahaven eval --serve DIR</code>.</p><ul>${failedList || '<li>none</li>'}</ul>
${failed.map(episodeSection).join('\n')}
</body></html>
`;
}
