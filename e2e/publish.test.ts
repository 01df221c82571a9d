/**
 * `seahaven publish --dry-run` with the kit as `npm pack` makes it: the Space folder it writes for crm, installed as its
 * Dockerfile installs it and started with the Dockerfile's command, serves the world and passes OpenEnv's checks.
 * packages/seahaven/command/publish/publish.test.ts checks the folder's files and the upload.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeahavenClient } from 'seahaven/client';
import {
  installPacked,
  packedTarball,
  runtimeDependencies,
  startServing,
} from 'seahaven/internal/core/test/packed-install';
import { dryRunCrmSpace, readDockerfile } from 'seahaven/internal/core/test/publish-cli';
import { freePort } from 'seahaven/internal/transports/serve/test-fixtures/free-port';

let tmp: string;
let tarball: string;
beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'seahaven-publish-'));
  tarball = await packedTarball();
}, 600_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The checks `openenv validate --url` makes of a running environment, as packages/seahaven/transports/serve/http.test.ts states them. */
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
  const mcp = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const mcpBody = (await mcp.json()) as { jsonrpc?: string };
  const simulation = ['/reset', '/step', '/state'].map((p) => paths.includes(p));
  return {
    openapi_version_available:
      openapi.status === 200 && typeof openapi.body?.info?.version === 'string',
    health_endpoint: health.status === 200 && health.body?.status === 'healthy',
    metadata_endpoint:
      metadata.status === 200 &&
      typeof metadata.body?.name === 'string' &&
      typeof metadata.body?.description === 'string',
    schema_endpoint:
      schema.status === 200 &&
      ['action', 'observation', 'state'].every(
        (k) => typeof schema.body?.[k] === 'object' && schema.body[k] !== null,
      ),
    mcp_endpoint: mcp.status === 200 && mcpBody.jsonrpc === '2.0',
    mode_endpoint_consistency: simulation.every(Boolean) || simulation.every((x) => !x),
  };
}

describe('seahaven publish --dry-run', () => {
  it('writes a self-contained Space for crm that serves it as its Dockerfile does and passes the OpenEnv checks', async () => {
    const started = Date.now();
    const space = join(tmp, 'space');
    await dryRunCrmSpace(tmp, space, tarball);
    const docker = readDockerfile(readFileSync(join(space, 'Dockerfile'), 'utf8'));

    // Install what the folder's package.json names, as that `npm install` does: the kit from the folder's tarball.
    const pkg = JSON.parse(readFileSync(join(space, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(pkg.dependencies).toEqual({ seahaven: 'file:seahaven-0.1.0.tgz' });
    installPacked(join(space, 'seahaven-0.1.0.tgz'), space, runtimeDependencies);

    // Then exactly the container's command, in the folder, with the Dockerfile's environment and a free port.
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: tmp,
      ...docker.env,
      PORT: String(port),
    };
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
      expect(((await (await fetch(`${base}/metadata`)).json()) as { name: string }).name).toBe(
        'crm',
      );

      // A graded episode over the WebSocket, as a trainer plays it.
      const env2 = await SeahavenClient.connect(`ws://127.0.0.1:${port}/ws`);
      const { observation } = await env2.reset({ task: 'add_lead', seed: 1 });
      expect(observation.task?.id).toBe('add_lead');
      const call = await env2.call('create_contact', {
        name: 'Ada Lovelace',
        email: 'ada.lovelace@acmerobotics.example',
        company_id: 'cmp_acme',
        title: 'Head of Research',
        stage: 'lead',
      });
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
