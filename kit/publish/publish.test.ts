/**
 * `seahaven publish`: the Space folder it writes for crm serves the world when started the way its Dockerfile starts
 * it, and passes OpenEnv's checks; the upload goes to a local stand-in for the hub in one commit; a missing, malformed
 * or rejected token fails in one line that names HF_TOKEN, with nothing uploaded.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeahavenClient } from '../client/index.ts';
import { crm } from '../../worlds/crm/index.ts';
import { installPacked, packageRoot, packedTarball, runtimeDependencies, startServing } from '../test/packed-install.ts';
import { startHubRecorder, type HubRecorder } from './hub-recorder.ts';
import { freePort } from '../serve/test-fixtures/free-port.ts';

const exec = promisify(execFile);
const SPACE = 'test-user/crm_world';
const TOKEN = 'hf_recorder_test_token';

let tmp: string;
let tarball: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-publish-'));
  tarball = await packedTarball();
}, 600_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Run `seahaven publish …` from this checkout; never throws, resolves with the exit code and output. */
async function publish(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, HF_TOKEN: undefined, HF_ENDPOINT: undefined, ...env };
  for (const [k, v] of Object.entries(base)) if (v === undefined) delete base[k];
  try {
    const r = await exec(process.execPath, [join(packageRoot, 'bin', 'seahaven.mjs'), 'publish', ...args], { cwd: tmp, env: base, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
  }
}

/** README.md's front matter, read as the flat YAML it is (keys, scalars and one list). */
function frontMatter(readme: string): Record<string, string | string[]> {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(readme);
  if (m === null) throw new Error(`README.md has no front matter:\n${readme.slice(0, 200)}`);
  const out: Record<string, string | string[]> = {};
  let list: string[] | null = null;
  for (const line of m[1].split('\n')) {
    const item = /^\s+- (.+)$/.exec(line);
    if (item && list) list.push(item[1]);
    else {
      const [, key, value] = /^([A-Za-z_]+):\s*(.*)$/.exec(line)!;
      if (value === '') out[key] = list = [];
      else {
        out[key] = value.startsWith('"') ? (JSON.parse(value) as string) : value;
        list = null;
      }
    }
  }
  return out;
}

interface Dockerfile {
  env: Record<string, string>;
  runs: string[];
  expose: string[];
  cmd: string[];
  user: string | undefined;
}

/** The instructions of the Dockerfile that matter for running it: ENV, RUN, EXPOSE, USER, CMD (exec form). */
function readDockerfile(text: string): Dockerfile {
  const out: Dockerfile = { env: {}, runs: [], expose: [], cmd: [], user: undefined };
  for (const line of text.split('\n')) {
    const [instruction, rest] = [line.split(' ')[0], line.slice(line.indexOf(' ') + 1)];
    if (instruction === 'ENV') for (const pair of rest.split(/\s+/)) out.env[pair.split('=')[0]] = pair.split('=')[1];
    if (instruction === 'RUN') out.runs.push(rest);
    if (instruction === 'EXPOSE') out.expose.push(rest);
    if (instruction === 'USER') out.user = rest;
    if (instruction === 'CMD') out.cmd = JSON.parse(rest) as string[];
  }
  return out;
}


/** The checks `openenv validate --url` makes of a running environment, as kit/serve/http.test.ts states them. */
async function openenvValidate(base: string): Promise<Record<string, boolean>> {
  const get = async (path: string) => {
    const r = await fetch(`${base}${path}`);
    return { status: r.status, body: (await r.json()) as any };
  };
  const openapi = await get('/openapi.json');
  const paths = Object.keys(openapi.body?.paths ?? {});
  const health = await get('/health');
  const metadata = await get('/metadata');
  const schema = await get('/schema');
  const mcp = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const mcpBody = (await mcp.json()) as { jsonrpc?: string };
  const simulation = ['/reset', '/step', '/state'].map((p) => paths.includes(p));
  return {
    openapi_version_available: openapi.status === 200 && typeof openapi.body?.info?.version === 'string',
    health_endpoint: health.status === 200 && health.body?.status === 'healthy',
    metadata_endpoint: metadata.status === 200 && typeof metadata.body?.name === 'string' && typeof metadata.body?.description === 'string',
    schema_endpoint: schema.status === 200 && ['action', 'observation', 'state'].every((k) => typeof schema.body?.[k] === 'object' && schema.body[k] !== null),
    mcp_endpoint: mcp.status === 200 && mcpBody.jsonrpc === '2.0',
    mode_endpoint_consistency: simulation.every(Boolean) || simulation.every((x) => !x),
  };
}

describe('seahaven publish --dry-run', () => {
  it('writes a self-contained Space for crm that serves it as its Dockerfile does and passes the OpenEnv checks', async () => {
    const started = Date.now();
    const space = join(tmp, 'space');
    const r = await publish(['crm', '--space', SPACE, '--dry-run', '--out', space, '--kit', tarball]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Not uploaded (--dry-run)');
    const files = r.stdout.split('\n')[0].replace(/^Wrote the Space for crm 1\.0\.0 in \S+: /, '').split(', ');
    expect(files).toEqual(['.dockerignore', 'Dockerfile', 'README.md', 'openenv.yaml', 'package.json', 'seahaven-0.1.0.tgz']);
    expect(readFileSync(join(space, 'seahaven-0.1.0.tgz')).equals(readFileSync(tarball))).toBe(true);

    // README.md: the Docker SDK, the app port and the openenv tag up front; the world described below.
    const readme = readFileSync(join(space, 'README.md'), 'utf8');
    const front = frontMatter(readme);
    expect(front).toMatchObject({ sdk: 'docker', app_port: '8000' });
    expect(front.tags).toContain('openenv');
    const body = readme.slice(readme.indexOf('\n---\n', 4) + 5);
    expect(body).toContain(crm.description);
    for (const tool of crm.tools) expect(body).toContain(`- \`${tool.name}\`: `);
    for (const fixture of Object.keys(crm.fixtures)) expect(body).toContain(`- \`${fixture}\``);
    for (const task of crm.tasks) expect(body).toContain(`- \`${task.id}\` (fixture \`${task.fixture}\``);
    expect(body).toContain('GenericEnvClient(base_url="https://test-user-crm-world.hf.space")');

    // openenv.yaml: OpenEnv's manifest of a Space.
    const manifest = readFileSync(join(space, 'openenv.yaml'), 'utf8');
    for (const line of ['spec_version: 1', 'name: "crm"', 'version: "1.0.0"', 'type: space', 'port: 8000', 'app: "seahaven serve crm"']) expect(manifest.split('\n')).toContain(line);

    // The Dockerfile serves on the declared port, on every interface, answering the Space's host name.
    const docker = readDockerfile(readFileSync(join(space, 'Dockerfile'), 'utf8'));
    expect(docker.expose).toEqual([front.app_port]);
    expect(docker.env).toMatchObject({ PORT: front.app_port, TZ: 'UTC' });
    expect(docker.user).toBe('node');
    expect(docker.runs.at(-1)).toBe('npm install --omit=dev --no-audit --no-fund');
    expect(docker.cmd).toEqual(['sh', '-c', 'exec node_modules/.bin/seahaven serve crm --host 0.0.0.0 --port "$PORT" --allow-host test-user-crm-world.hf.space']);

    // Install what the folder's package.json names, as that `npm install` does: the kit from the folder's tarball.
    const pkg = JSON.parse(readFileSync(join(space, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toEqual({ seahaven: 'file:seahaven-0.1.0.tgz' });
    installPacked(join(space, 'seahaven-0.1.0.tgz'), space, runtimeDependencies);

    // Then exactly the container's command, in the folder, with the Dockerfile's environment and a free port.
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmp, ...docker.env, PORT: String(port) };
    const served = await startServing(space, docker.cmd, env);
    try {
      expect(served.url).toBe(`http://0.0.0.0:${port}`);
      const base = `http://127.0.0.1:${port}`;
      expect(await openenvValidate(base)).toEqual({
        openapi_version_available: true,
        health_endpoint: true,
        metadata_endpoint: true,
        schema_endpoint: true,
        mcp_endpoint: true,
        mode_endpoint_consistency: true,
      });
      expect(((await (await fetch(`${base}/metadata`)).json()) as { name: string }).name).toBe('crm');

      // A graded episode over the WebSocket, as a trainer plays it.
      const env2 = await SeahavenClient.connect(`ws://127.0.0.1:${port}/ws`);
      const { observation } = await env2.reset({ task: 'add_lead', seed: 1 });
      expect(observation.task?.id).toBe('add_lead');
      const call = await env2.call('create_contact', { name: 'Ada Lovelace', email: 'ada.lovelace@acmerobotics.example', company_id: 'cmp_acme', title: 'Head of Research', stage: 'lead' });
      expect(call.ok, JSON.stringify(call)).toBe(true);
      const graded = await env2.submit();
      expect([graded.reward, graded.done]).toEqual([1, true]);
      await env2.close();

      // The Space's own host name is answered; another is refused, as on any server without a token.
      const { request } = await import('node:http');
      const statusFor = (host: string) =>
        new Promise<number>((resolve, reject) => {
          request({ host: '127.0.0.1', port, path: '/health', headers: { host } }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
            .on('error', reject)
            .end();
        });
      expect(await statusFor('test-user-crm-world.hf.space')).toBe(200);
      expect(await statusFor('elsewhere.example')).toBe(403);
    } finally {
      expect(await served.stop()).toBe(0);
    }
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});

describe('seahaven publish (upload)', () => {
  let hub: HubRecorder;
  beforeAll(async () => {
    hub = await startHubRecorder({ validToken: TOKEN });
  });
  afterAll(() => hub.close());

  it('creates the Space (Docker SDK) and puts every file in one commit, binary files through LFS', async () => {
    const r = await publish(['crm', '--space', SPACE, '--private', '--kit', tarball], { HF_TOKEN: TOKEN, HF_ENDPOINT: hub.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Created the Space test-user\/crm_world: 6 files in commit [0-9a-f]{40}$/m);
    expect(r.stdout).toContain(`page:    ${hub.url}/spaces/${SPACE}`);
    expect(r.stdout).toContain('OpenEnv: https://test-user-crm-world.hf.space');

    const kit = readFileSync(tarball);
    const oid = createHash('sha256').update(kit).digest('hex');
    expect(hub.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'POST /api/repos/create',
      `POST /api/spaces/${SPACE}/preupload/main`,
      `POST /spaces/${SPACE}.git/info/lfs/objects/batch`,
      `PUT /lfs-objects/${oid}`,
      `POST /api/spaces/${SPACE}/commit/main`,
    ]);
    // Every hub API call carries the token; the storage PUT goes to the URL the batch call handed out.
    for (const q of hub.requests.filter((q) => !q.path.startsWith('/lfs-objects/'))) expect(q.authorization).toBe(`Bearer ${TOKEN}`);
    expect(hub.created).toEqual([{ space: SPACE, kind: 'space', body: expect.objectContaining({ name: 'crm_world', organization: 'test-user', type: 'space', sdk: 'docker', visibility: 'private' }) }]);
    expect(hub.requests.at(-1)!.contentType).toBe('application/x-ndjson');

    expect(hub.commits).toHaveLength(1);
    const [commit] = hub.commits;
    expect(commit).toMatchObject({ space: SPACE, branch: 'main', summary: 'Publish crm 1.0.0' });
    expect(commit.files.map((f) => `${f.path} ${f.kind}`).sort()).toEqual([
      '.dockerignore file',
      'Dockerfile file',
      'README.md file',
      'openenv.yaml file',
      'package.json file',
      'seahaven-0.1.0.tgz lfsFile',
    ]);
    const byPath = new Map(commit.files.map((f) => [f.path, f.bytes]));
    expect(byPath.get('seahaven-0.1.0.tgz')!.equals(kit)).toBe(true);
    // The same files a dry run writes, byte for byte.
    const space = join(tmp, 'space');
    for (const file of ['Dockerfile', 'README.md', 'openenv.yaml', 'package.json']) expect(byPath.get(file)!.toString('utf8'), file).toBe(readFileSync(join(space, file), 'utf8'));

    // Publishing again updates the Space: creation answers 409, and the files go in a second commit.
    const again = await publish(['crm', '--space', SPACE, '--kit', tarball], { HF_TOKEN: TOKEN, HF_ENDPOINT: hub.url });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Updated the Space test-user\/crm_world: 6 files in commit /m);
    expect(hub.created).toHaveLength(1);
    expect(hub.commits).toHaveLength(2);
  }, 120_000);

  it('fails in one line naming HF_TOKEN when the token is missing, malformed or rejected, and uploads nothing', async () => {
    hub.requests.length = 0;
    const commits = hub.commits.length;
    const oneLine = (stderr: string) => {
      expect(stderr.endsWith('\n') && stderr.trimEnd().split('\n').length === 1, stderr).toBe(true);
      return stderr.trimEnd();
    };

    const missing = await publish(['crm', '--space', 'test-user/other', '--kit', tarball], { HF_ENDPOINT: hub.url });
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toMatch(/^seahaven: no Hugging Face token: pass a Hugging Face write token with --token or set HF_TOKEN /);

    const malformed = await publish(['crm', '--space', 'test-user/other', '--kit', tarball], { HF_TOKEN: 'not-a-token', HF_ENDPOINT: hub.url });
    expect(malformed.code).toBe(2);
    expect(oneLine(malformed.stderr)).toMatch(/^seahaven: the Hugging Face token does not start with hf_; .*HF_TOKEN/);
    expect(hub.requests).toEqual([]);

    const rejected = await publish(['crm', '--space', 'test-user/other', '--kit', tarball, '--token', 'hf_revoked'], { HF_ENDPOINT: hub.url });
    expect(rejected.code).toBe(1);
    expect(oneLine(rejected.stderr)).toMatch(new RegExp(`^seahaven: ${hub.url.replace(/[.]/g, '\\.')} rejected the token \\(HTTP 401: Invalid credentials in Authorization header\\); .*--token or set HF_TOKEN`));
    // Refused at the first call: no Space created, nothing sent for upload, no commit.
    expect(hub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/repos/create']);
    expect(hub.commits).toHaveLength(commits);
    expect(hub.created.map((c) => c.space)).not.toContain('test-user/other');

    // Usage: --dry-run needs --out, and a Space is owner/name.
    const noOut = await publish(['crm', '--space', SPACE, '--dry-run']);
    expect(noOut.code).toBe(2);
    expect(oneLine(noOut.stderr)).toBe('seahaven: --dry-run writes the Space folder without uploading it; say where with --out <dir>');
    const badSpace = await publish(['crm', '--space', 'just-a-name', '--dry-run', '--out', join(tmp, 'never')]);
    expect(badSpace.code).toBe(2);
    expect(oneLine(badSpace.stderr)).toMatch(/^seahaven: --space just-a-name: give the Space as owner\/name/);
  }, 120_000);
});
