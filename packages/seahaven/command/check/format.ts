/** The text `seahaven check` prints: one block per finding (code, severity, where, what, fix), then a summary line. */
import { relative } from 'node:path';
import type { Finding, Location } from './codes.ts';
import type { CheckReport } from './run.ts';

function where(location: Location | undefined, cwd: string): string {
  if (!location) return '';
  const file = location.file ? relative(cwd, location.file) || location.file : '';
  const position =
    file && location.line
      ? `${file}:${location.line}${location.column ? `:${location.column}` : ''}`
      : file || (location.line ? `schema line ${location.line}` : '');
  if (position && location.object) return `${position} (${location.object})`;
  return position || location.object || '';
}

/** One finding as text: `SH101 error  worlds/x/schema.sql:3 (table t)`, the message, and the fix. */
export function formatFinding(f: Finding, cwd = process.cwd()): string {
  const place = where(f.location, cwd);
  return `${f.code} ${f.severity.padEnd(7)} ${place}\n  ${f.message}\n  fix: ${f.fix}`;
}

/**
 * A report as text. Zero findings give one OK line naming the checks that ran.
 * @example
 * process.stdout.write(formatReport(await runChecks('crm')));
 */
export function formatReport(report: CheckReport, cwd = process.cwd()): string {
  const name = report.world ? `${report.world.name} ${report.world.version}` : report.target;
  const checks = report.checks.join(', ');
  if (report.findings.length === 0) return `OK ${name}: no findings (${checks}).\n`;
  const blocks = report.findings.map((f) => formatFinding(f, cwd)).join('\n\n');
  const counts = `${report.errors} error${report.errors === 1 ? '' : 's'}, ${report.warnings} warning${report.warnings === 1 ? '' : 's'}`;
  const verdict = report.ok ? `OK ${name} with ${counts}` : `FAILED ${name}: ${counts}`;
  return `${blocks}\n\n${verdict} (${checks}).\n`;
}
