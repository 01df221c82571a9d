/** What `seahaven serve` prints once it listens: the URLs it serves and a snippet to connect from TypeScript and Python. */
import type { World } from '../../../core/world.ts';
import type { ServedCurricula } from '../../../transports/serve/curricula.ts';

/** Where each world's own HTTP API answers (the first one's also at the root). */
function faceLines(url: string, worlds: World[]): string[] {
  const faced = worlds.filter((w) => w.http !== undefined);
  return faced.map(
    (w, i) =>
      `  ${w.name} HTTP API:  ${i === 0 ? `${url}${w.http!.basePath}  (also ` : '('}${url}/${w.name}${w.http!.basePath}); each key is its own account, a session's key is in its reset metadata (api_key)`,
  );
}

export function banner(
  url: string,
  worlds: World[],
  fixture: string | undefined,
  token: boolean,
  curricula: ServedCurricula | undefined,
  withConsole: boolean,
): string {
  const first = worlds[0];
  // A tool the snippet can call with no arguments, so it runs as printed.
  const tool = first
    .toolListings()
    .find(
      (t) => !Array.isArray(t.inputSchema.required) || t.inputSchema.required.length === 0,
    )?.name;
  const call = tool ? `await env.call('${tool}', {})` : 'await env.listTools()';
  const reset = fixture ? `{ fixture: '${fixture}', seed: 1 }` : '{ seed: 1 }';
  const lines = [
    `seahaven serve: ${worlds.map((w) => `${w.name} ${w.version}`).join(', ')} at ${url}`,
    `  OpenEnv base URL: ${url}  (also ${worlds.map((w) => `${url}/${w.name}`).join(', ')})`,
    `  WebSocket:        ${url.replace(/^http/, 'ws')}/ws`,
    `  health:           ${url}/health`,
    `  tasks:            ${url}/tasks  (OpenEnv Task API: ${url}/${first.name}/splits, …/task)`,
    ...curriculaLines(url, curricula),
    ...(withConsole ? [`  console:          ${url}/console/`] : []),
    ...faceLines(url, worlds),
    '',
    '  TypeScript:',
    `    import { SeahavenClient } from 'seahaven/client';`,
    `    await using env = await SeahavenClient.connect('${url}'${token ? ', { token: process.env.SEAHAVEN_TOKEN }' : ''});`,
    `    await env.reset(${reset});`,
    `    console.log(${call}, (await env.state()).changes);`,
    '',
    '  Python (OpenEnv):',
    '    from openenv.core import GenericEnvClient',
    `    with GenericEnvClient(base_url="${url}").sync() as env:`,
    `        env.reset(${fixture ? `fixture="${fixture}", ` : ''}seed=1)`,
    tool
      ? `        print(env.step({"type": "call_tool", "tool_name": "${tool}", "arguments": {}}))`
      : '        print(env.step({"type": "list_tools"}))',
    '',
    '  Press Ctrl+C to stop.',
  ];
  return lines.join('\n') + '\n';
}

function curriculaLines(url: string, curricula: ServedCurricula | undefined): string[] {
  if (!curricula) return [];
  const names = [...curricula.curricula].flatMap(([world, list]) =>
    list.map((n) => (curricula.curricula.size > 1 ? `${world}/${n}` : n)),
  );
  const first = [...curricula.curricula.values()][0][0];
  return [
    `  curricula:        ${names.join(', ')}; reset with {"curriculum": "${first}", "run_id": "run-1"}`,
    `  progress:         ${url}/curricula/${first}/runs/run-1`,
    curricula.kind === 'postgres'
      ? `  runs database:    ${curricula.path}`
      : `  runs file:        ${curricula.path}`,
  ];
}
