/**
 * A stand-in for the Hugging Face hub, for tests: a local HTTP server that answers the requests `@huggingface/hub`
 * makes to create a Space or a dataset and commit files to it (repo creation, preupload, the LFS batch call, the LFS object PUT,
 * the commit), records each one, and keeps what was committed. Files whose first bytes are binary go through LFS, as
 * on the hub. A token other than `validToken` gets 401 from every authenticated route.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: Buffer;
}

export interface CommittedFile {
  path: string;
  bytes: Buffer;
  /** `file` (inline, base64) or `lfsFile` (uploaded by the LFS PUT first). */
  kind: 'file' | 'lfsFile';
}

export interface Commit {
  /** The repository: a Space, or a dataset when `kind` says so. */
  space: string;
  kind: 'space' | 'dataset';
  branch: string;
  summary: string;
  files: CommittedFile[];
}

export interface HubRecorder {
  url: string;
  requests: RecordedRequest[];
  /** Repositories created (Spaces, and datasets with `kind: 'dataset'`), with what the creation asked for. */
  created: { space: string; kind: 'space' | 'dataset'; body: Record<string, unknown> }[];
  commits: Commit[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
};

/** Whether a preupload sample (the first 512 bytes) looks binary: a NUL byte, as git decides. */
const binary = (sampleBase64: string) => Buffer.from(sampleBase64, 'base64').includes(0);

/**
 * Start the recorder on a free local port.
 * @example
 * const hub = await startHubRecorder({ validToken: 'hf_test' }); // HF_ENDPOINT=hub.url
 */
export async function startHubRecorder(options: {
  validToken: string;
  existing?: string[];
}): Promise<HubRecorder> {
  // Keyed `space:owner/name` or `dataset:owner/name`; `existing` names Spaces.
  const spaces = new Set((options.existing ?? []).map((s) => `space:${s}`));
  const kindOf = (plural: string) =>
    (plural === 'datasets' ? 'dataset' : 'space') as 'space' | 'dataset';
  const lfs = new Map<string, Buffer>();
  const recorder: HubRecorder = {
    url: '',
    requests: [],
    created: [],
    commits: [],
    close: async () => {},
  };

  const handle = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const path = req.url ?? '/';
    const authorized = req.headers.authorization === `Bearer ${options.validToken}`;
    const refuse = () => json(res, 401, { error: 'Invalid credentials in Authorization header' });
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && path === '/api/repos/create') {
      if (!authorized) return refuse();
      const payload = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const space = `${payload.organization}/${payload.name}`;
      if (payload.type !== 'space' && payload.type !== 'dataset')
        return json(res, 400, {
          error: `expected type "space" or "dataset", got ${String(payload.type)}`,
        });
      const kind = payload.type;
      if (spaces.has(`${kind}:${space}`))
        return json(res, 409, {
          error: `You already created this ${kind} repo`,
          url: `${recorder.url}/${kind}s/${space}`,
        });
      spaces.add(`${kind}:${space}`);
      recorder.created.push({ space, kind, body: payload });
      return json(res, 200, {
        url: `${recorder.url}/${kind}s/${space}`,
        name: space,
        id: `${kind}-${recorder.created.length}`,
      });
    }
    if (
      req.method === 'POST' &&
      (m = /^\/api\/(spaces|datasets)\/([^/]+\/[^/]+)\/preupload\/([^/?]+)$/.exec(path))
    ) {
      if (!authorized) return refuse();
      if (!spaces.has(`${kindOf(m[1])}:${m[2]}`))
        return json(res, 404, { error: 'Repository not found' });
      const { files } = JSON.parse(body.toString('utf8')) as {
        files: { path: string; size: number; sample: string }[];
      };
      return json(res, 200, {
        files: files.map((f) => ({
          path: f.path,
          uploadMode: binary(f.sample) ? 'lfs' : 'regular',
          shouldIgnore: false,
        })),
        commitOid: '0'.repeat(40),
      });
    }
    if (
      req.method === 'POST' &&
      (m = /^\/(?:spaces|datasets)\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(path))
    ) {
      if (!authorized) return refuse();
      const batch = JSON.parse(body.toString('utf8')) as {
        operation: string;
        transfers: string[];
        objects: { oid: string; size: number }[];
      };
      // Plain ("basic") transfers: the client PUTs each object to the href.
      return json(
        res,
        200,
        {
          transfer: 'basic',
          objects: batch.objects.map((o) => ({
            oid: o.oid,
            size: o.size,
            authenticated: true,
            actions: {
              upload: {
                href: `${recorder.url}/lfs-objects/${o.oid}`,
                expires_at: '2100-01-01T00:00:00Z',
              },
            },
          })),
        },
        'application/vnd.git-lfs+json',
      );
    }
    if (req.method === 'PUT' && (m = /^\/lfs-objects\/([0-9a-f]{64})$/.exec(path))) {
      const oid = createHash('sha256').update(body).digest('hex');
      if (oid !== m[1]) return json(res, 400, { error: `content hashes to ${oid}, not ${m[1]}` });
      lfs.set(oid, body);
      res.writeHead(200).end();
      return;
    }
    if (
      req.method === 'POST' &&
      (m = /^\/api\/(spaces|datasets)\/([^/]+\/[^/]+)\/commit\/([^/?]+)$/.exec(path))
    ) {
      if (!authorized) return refuse();
      const lines = body
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { key: string; value: Record<string, any> });
      const header = lines.find((l) => l.key === 'header');
      const files: CommittedFile[] = [];
      for (const { key, value } of lines) {
        if (key === 'file')
          files.push({
            path: value.path,
            bytes: Buffer.from(value.content, value.encoding === 'base64' ? 'base64' : 'utf8'),
            kind: 'file',
          });
        else if (key === 'lfsFile') {
          const bytes = lfs.get(value.oid);
          if (bytes === undefined)
            return json(res, 400, {
              error: `LFS object ${value.oid} (${value.path}) was never uploaded`,
            });
          files.push({ path: value.path, bytes, kind: 'lfsFile' });
        } else if (key !== 'header')
          return json(res, 400, { error: `unexpected commit entry ${key}` });
      }
      const oid = createHash('sha1').update(body).digest('hex');
      recorder.commits.push({
        space: m[2],
        kind: kindOf(m[1]),
        branch: decodeURIComponent(m[3]),
        summary: header?.value.summary ?? '',
        files,
      });
      return json(res, 200, {
        success: true,
        commitOid: oid,
        commitUrl: `${recorder.url}/${m[1]}/${m[2]}/commit/${oid}`,
        hookOutput: '',
      });
    }
    json(res, 404, { error: `no route ${req.method} ${path}` });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      recorder.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
      });
      try {
        handle(req, body, res);
      } catch (e) {
        json(res, 500, { error: (e as Error).message });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recorder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  recorder.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return recorder;
}
