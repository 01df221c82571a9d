/**
 * `seahaven publish`: the Space folder it writes for crm (e2e/publish.test.ts installs and serves it); the upload goes
 * to a local stand-in for the hub in one commit; a missing, malformed or rejected token fails in one line that names
 * HF_TOKEN, with nothing uploaded. The kit tarball is a stand-in: what the Space does with the real one is the e2e
 * test's.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crm } from '../../../../worlds/crm/index.ts';
import { startHubRecorder, type HubRecorder } from './hub-recorder.ts';
import { dryRunCrmSpace, frontMatter, publish, standInKit } from '../../core/test/publish-cli.ts';

const SPACE = 'test-user/crm_world';
const TOKEN = 'hf_recorder_test_token';

let tmp: string;
let tarball: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-publish-'));
  tarball = standInKit(tmp);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('seahaven publish --dry-run', () => {
  it("writes a self-contained Space for crm: the Docker SDK, OpenEnv's manifest, a Dockerfile that serves the world, the kit inside", async () => {
    const space = join(tmp, 'space');
    await dryRunCrmSpace(tmp, space, tarball);

    // README.md: the Docker SDK, the app port and the openenv tag up front; the world described below.
    const readme = readFileSync(join(space, 'README.md'), 'utf8');
    const front = frontMatter(readme);
    expect(front).toMatchObject({ sdk: 'docker', app_port: '8000' });
    expect(front.tags).toContain('openenv');
    const body = readme.slice(readme.indexOf('\n---\n', 4) + 5);
    expect(body).toContain(crm.description);
    for (const tool of crm.tools) expect(body).toContain(`- \`${tool.name}\`: `);
    for (const fixture of Object.keys(crm.fixtures)) expect(body).toContain(`- \`${fixture}\``);
    for (const task of crm.tasks)
      expect(body).toContain(`- \`${task.id}\` (fixture \`${task.fixture}\``);
    expect(body).toContain('GenericEnvClient(base_url="https://test-user-crm-world.hf.space")');

    // openenv.yaml: OpenEnv's manifest of a Space.
    const manifest = readFileSync(join(space, 'openenv.yaml'), 'utf8');
    for (const line of [
      'spec_version: 1',
      'name: "crm"',
      'version: "1.0.0"',
      'type: space',
      'port: 8000',
      'app: "seahaven serve world/index.ts"',
    ])
      expect(manifest.split('\n')).toContain(line);

    // The image installs what the folder's package.json names: the kit from the folder's tarball.
    const pkg = JSON.parse(readFileSync(join(space, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies).toEqual({ seahaven: 'file:seahaven-0.1.0.tgz' });
  });
});

describe('seahaven publish (upload)', () => {
  let hub: HubRecorder;
  beforeAll(async () => {
    hub = await startHubRecorder({ validToken: TOKEN });
  });
  afterAll(() => hub.close());

  it('creates the Space (Docker SDK) and puts every file in one commit, binary files through LFS', async () => {
    const r = await publish(tmp, ['crm', '--space', SPACE, '--private', '--kit', tarball], {
      HF_TOKEN: TOKEN,
      HF_ENDPOINT: hub.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^Created the Space test-user\/crm_world: \d+ files in commit [0-9a-f]{40}$/m,
    );
    expect(r.stdout).toContain(`page:    ${hub.url}/spaces/${SPACE}`);
    expect(r.stdout).toContain('OpenEnv: https://test-user-crm-world.hf.space');

    const kit = readFileSync(tarball);
    const oid = createHash('sha256').update(kit).digest('hex');
    // The binary files go to LFS storage: the kit, and the world's committed fixture images (world/ holds its package).
    const images = ['empty', 'small_startup'].map((id) =>
      readFileSync(new URL(`../../../../worlds/crm/fixtures/${id}.sqlite`, import.meta.url)),
    );
    const stored = [kit, ...images].map(
      (b) => `PUT /lfs-objects/${createHash('sha256').update(b).digest('hex')}`,
    );
    const requests = hub.requests.map((q) => `${q.method} ${q.path}`);
    expect(requests.filter((q) => !q.startsWith('PUT '))).toEqual([
      'POST /api/repos/create',
      `POST /api/spaces/${SPACE}/preupload/main`,
      `POST /spaces/${SPACE}.git/info/lfs/objects/batch`,
      `POST /api/spaces/${SPACE}/commit/main`,
    ]);
    expect(requests.filter((q) => q.startsWith('PUT ')).sort()).toEqual(stored.sort());
    expect(requests).toContain(`PUT /lfs-objects/${oid}`);
    // Every hub API call carries the token; the storage PUT goes to the URL the batch call handed out.
    for (const q of hub.requests.filter((q) => !q.path.startsWith('/lfs-objects/')))
      expect(q.authorization).toBe(`Bearer ${TOKEN}`);
    expect(hub.created).toEqual([
      {
        space: SPACE,
        kind: 'space',
        body: expect.objectContaining({
          name: 'crm_world',
          organization: 'test-user',
          type: 'space',
          sdk: 'docker',
          visibility: 'private',
        }),
      },
    ]);
    expect(hub.requests.at(-1)!.contentType).toBe('application/x-ndjson');

    expect(hub.commits).toHaveLength(1);
    const [commit] = hub.commits;
    expect(commit).toMatchObject({ space: SPACE, branch: 'main', summary: 'Publish crm 1.0.0' });
    const committed = commit.files.map((f) => `${f.path} ${f.kind}`).sort();
    expect(committed).toEqual(
      expect.arrayContaining([
        'world/index.ts file',
        'world/fixtures/empty.sqlite lfsFile',
        'world/fixtures/small_startup.json file',
      ]),
    );
    // A fixture image git does not carry (over 1 MiB) is rebuilt by the server on first use, not uploaded.
    expect(committed).not.toContain('world/fixtures/big_co.sqlite lfsFile');
    expect(committed.filter((f) => !f.startsWith('world/'))).toEqual([
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
    for (const file of ['Dockerfile', 'README.md', 'openenv.yaml', 'package.json'])
      expect(byPath.get(file)!.toString('utf8'), file).toBe(
        readFileSync(join(space, file), 'utf8'),
      );

    // Publishing again updates the Space: creation answers 409, and the files go in a second commit.
    const again = await publish(tmp, ['crm', '--space', SPACE, '--kit', tarball], {
      HF_TOKEN: TOKEN,
      HF_ENDPOINT: hub.url,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Updated the Space test-user\/crm_world: \d+ files in commit /m);
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

    const missing = await publish(tmp, ['crm', '--space', 'test-user/other', '--kit', tarball], {
      HF_ENDPOINT: hub.url,
    });
    expect(missing.code).toBe(2);
    expect(oneLine(missing.stderr)).toMatch(
      /^seahaven: no Hugging Face token: pass a Hugging Face write token with --token or set HF_TOKEN /,
    );

    const malformed = await publish(tmp, ['crm', '--space', 'test-user/other', '--kit', tarball], {
      HF_TOKEN: 'not-a-token',
      HF_ENDPOINT: hub.url,
    });
    expect(malformed.code).toBe(2);
    expect(oneLine(malformed.stderr)).toMatch(
      /^seahaven: the Hugging Face token does not start with hf_; .*HF_TOKEN/,
    );
    expect(hub.requests).toEqual([]);

    const rejected = await publish(
      tmp,
      ['crm', '--space', 'test-user/other', '--kit', tarball, '--token', 'hf_revoked'],
      { HF_ENDPOINT: hub.url },
    );
    expect(rejected.code).toBe(1);
    expect(oneLine(rejected.stderr)).toMatch(
      new RegExp(
        `^seahaven: ${hub.url.replace(/[.]/g, '\\.')} rejected the token \\(HTTP 401: Invalid credentials in Authorization header\\); .*--token or set HF_TOKEN`,
      ),
    );
    // Refused at the first call: no Space created, nothing sent for upload, no commit.
    expect(hub.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['POST /api/repos/create']);
    expect(hub.commits).toHaveLength(commits);
    expect(hub.created.map((c) => c.space)).not.toContain('test-user/other');

    // Usage: --dry-run needs --out, and a Space is owner/name.
    const noOut = await publish(tmp, ['crm', '--space', SPACE, '--dry-run']);
    expect(noOut.code).toBe(2);
    expect(oneLine(noOut.stderr)).toBe(
      'seahaven: --dry-run writes the Space folder without uploading it; say where with --out <dir>',
    );
    const badSpace = await publish(tmp, [
      'crm',
      '--space',
      'just-a-name',
      '--dry-run',
      '--out',
      join(tmp, 'never'),
    ]);
    expect(badSpace.code).toBe(2);
    expect(oneLine(badSpace.stderr)).toMatch(
      /^seahaven: --space just-a-name: give the Space as owner\/name/,
    );
  }, 120_000);
});
