/**
 * The container image and the Kubernetes manifests, checked without a container engine or a cluster:
 *
 * - the Dockerfile, read instruction by instruction: a build stage and a runtime stage without compilers, a non-root
 *   user, the health check, the port, the command; the runtime stage copies everything the package ships;
 * - the image's command run for real, from a folder laid out as the runtime stage's COPY lines lay out /app (the
 *   build stage's node_modules stood in for by this checkout's), with the image's environment: it serves, passes its
 *   own health check, plays a graded episode, and stops on SIGTERM within the drain;
 * - .dockerignore keeps git-ignored fixture images (rebuilt on first use) out of the build context;
 * - deploy/kubernetes/*.yaml against the Kubernetes JSON schemas (the kubernetes-models package), plus what the
 *   schemas cannot say (probes, ports, selectors, grace period, autoscaler target); `kubectl kustomize` renders the
 *   folder where kubectl is installed.
 */
import { execFile, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { SeahavenClient } from '../../libraries/client/index.ts';
import { packageRoot, repoRoot } from './packed-install.ts';
import { freePort } from '../../transports/serve/test-fixtures/free-port.ts';

const exec = promisify(execFile);
const root = repoRoot;

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  steps: Instruction[];
}

/** The Dockerfile's stages, each with its instructions (continuation lines joined, comments dropped). */
function readStages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ from: m[1], name: m[2], steps: [] });
    } else stages.at(-1)!.steps.push({ op, args });
  }
  return stages;
}

const execForm = (args: string) => JSON.parse(args) as string[];
const envOf = (stage: Stage) =>
  Object.fromEntries(
    stage.steps
      .filter((s) => s.op === 'ENV')
      .flatMap((s) => s.args.split(/\s+/).map((kv) => kv.split('=') as [string, string])),
  );

/** A .dockerignore pattern as a RegExp over a slash-separated relative path (`*`, `?`, `**`; a match covers what is under it). */
function ignoreMatcher(patterns: string[]): (path: string) => boolean {
  const res = patterns.map((p) => {
    const body = p
      .replace(/^\/+|\/+$/g, '')
      .split('/')
      .map((seg) =>
        seg === '**'
          ? '.*'
          : seg
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '[^/]*')
              .replace(/\?/g, '[^/]'),
      )
      .join('/');
    return new RegExp(`^${body.replace(/\.\*\//g, '(?:.*/)?')}(?:/.*)?$`);
  });
  return (path) => res.some((r) => r.test(path));
}

const dockerignore = () =>
  readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));

const stages = readStages(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const steps = (op: string) => runtime.steps.filter((s) => s.op === op);

describe('Dockerfile', () => {
  it('builds in one stage and runs from a small one, as a non-root user, with a health check on /health', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(stages.every((s) => s.from === 'node:20-bookworm-slim')).toBe(true);
    const build = stages[0];
    expect(build.steps.some((s) => s.op === 'RUN' && s.args.includes('npm ci --omit=dev'))).toBe(
      true,
    );
    // No compilers or package installs in the runtime stage: it only copies.
    expect(steps('RUN').map((s) => s.args)).toEqual(['mkdir .data && chown node:node /app .data']);
    expect(
      steps('COPY')
        .filter((s) => s.args.startsWith('--from='))
        .map((s) => s.args),
    ).toEqual(['--from=build /app/node_modules ./node_modules']);

    expect(steps('USER').map((s) => s.args)).toEqual(['node']);
    const env = envOf(runtime);
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      TZ: 'UTC',
      PORT: '8000',
      SEAHAVEN_WORLD: 'crm',
      SEAHAVEN_WORKERS: 'auto',
    });
    expect(steps('EXPOSE').map((s) => s.args)).toEqual([env.PORT]);
    const [health] = steps('HEALTHCHECK');
    expect(health.args).toMatch(/--interval=\d+s --timeout=\d+s/);
    expect(execForm(health.args.slice(health.args.indexOf('CMD') + 4))).toEqual([
      'node',
      'deploy/healthcheck.mjs',
    ]);
    expect(readFileSync(join(root, 'deploy/healthcheck.mjs'), 'utf8')).toContain('/health');
    expect(execForm(steps('ENTRYPOINT')[0].args)).toEqual(['sh', '/app/deploy/entrypoint.sh']);
    expect(execForm(steps('CMD')[0].args)).toEqual([]);
    expect(steps('WORKDIR').map((s) => s.args)).toEqual(['/app']);
  });

  it('copies every folder the package ships, and keeps untracked fixture images out of the build context', () => {
    const copied = new Set(
      steps('COPY')
        .filter((s) => !s.args.startsWith('--from='))
        .flatMap((s) =>
          s.args
            .replace(/^--chown=\S+\s+/, '')
            .split(/\s+/)
            .slice(0, -1),
        ),
    );
    // The package's folders, and the repository's documents it bundles when packed.
    const bundled = ['docs', 'AGENTS.md', 'README.md'];
    const shipped = (
      JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { files: string[] }
    ).files
      .filter((f) => !f.startsWith('!') && f !== 'dist')
      .map((f) => (bundled.includes(f) ? f : `packages/seahaven/${f}`));
    for (const f of shipped) expect(copied, `COPY ${f}`).toContain(f);
    for (const f of copied) expect(existsSync(join(root, f)), f).toBe(true);

    const ignored = ignoreMatcher(dockerignore());
    for (const p of ['node_modules/x', '.git/HEAD', '.data/curricula.sqlite', 'seahaven-0.1.0.tgz'])
      expect(ignored(p), p).toBe(true);
    for (const p of [
      'packages/seahaven/core/index.ts',
      'worlds/crm/fixtures/small_startup.sqlite',
      'package.json',
      'deploy/entrypoint.sh',
    ])
      expect(ignored(p), p).toBe(false);
    // Fixture images git does not track (each world's fixtures/.gitignore) are rebuilt on first use; a developer's
    // copies (hundreds of MB) stay out of the context.
    const worlds = join(root, 'worlds');
    for (const world of readdirSync(worlds)) {
      const gitignore = join(worlds, world, 'fixtures', '.gitignore');
      if (!existsSync(gitignore)) continue;
      for (const line of readFileSync(gitignore, 'utf8')
        .split('\n')
        .map((l) => l.trim())) {
        if (line === '' || line.startsWith('#')) continue;
        const path = `worlds/${world}/fixtures/${line}`;
        expect(ignored(path), `add "${path}" to .dockerignore (git does not track it)`).toBe(true);
      }
    }
  });

  it('runs the image command from a folder laid out as the image is: serves, passes its health check, drains on SIGTERM', async () => {
    const app = mkdtempSync(join(tmpdir(), 'seahaven-image-'));
    const ignored = ignoreMatcher(dockerignore());
    try {
      for (const step of steps('COPY')) {
        const parts = step.args.replace(/^--chown=\S+\s+/, '').split(/\s+/);
        const dest = join(app, relative('/app', join('/app', parts.at(-1)!)));
        if (parts[0].startsWith('--from=')) {
          // The build stage's `npm ci --omit=dev`: this checkout's node_modules stands in for it.
          symlinkSync(join(root, 'node_modules'), dest, 'dir');
          continue;
        }
        for (const src of parts.slice(0, -1)) {
          const into =
            parts.length > 2 || parts.at(-1)!.endsWith('/')
              ? join(dest, src.split('/').at(-1)!)
              : dest;
          mkdirSync(dirname(into), { recursive: true });
          cpSync(join(root, src), into, {
            recursive: true,
            filter: (from) => !ignored(relative(root, from)),
          });
        }
      }
      mkdirSync(join(app, '.data'));
      const port = await freePort();
      // `--workers` is the serve command's; where it is not there yet, the image's default cannot be run.
      const workers = readFileSync(
        join(root, 'packages/seahaven/command/cli/commands/serve.ts'),
        'utf8',
      ).includes("'--workers");
      if (!workers)
        console.log(
          '[image] seahaven serve has no --workers yet: running the image command with SEAHAVEN_WORKERS empty',
        );
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: app,
        ...envOf(runtime),
        PORT: String(port),
        SEAHAVEN_TOKEN: 'image-test-token',
        ...(workers ? {} : { SEAHAVEN_WORKERS: '' }),
      };
      const [entry, ...entryArgs] = execForm(steps('ENTRYPOINT')[0].args);
      const script = entryArgs[0].replace(/^\/app\//, '');
      const child = spawn(entry, [script, ...execForm(steps('CMD')[0].args)], {
        cwd: app,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((resolve) =>
        child.once('exit', (code) => resolve(code)),
      );
      try {
        const base = `http://127.0.0.1:${port}`;
        const deadline = Date.now() + 60_000;
        for (;;) {
          const ok = await fetch(`${base}/health`, {
            headers: { authorization: 'Bearer image-test-token' },
          }).then(
            (r) => r.ok,
            () => false,
          );
          if (ok && out.includes('Ctrl+C')) break;
          if (child.exitCode !== null || Date.now() > deadline)
            throw new Error(`the image command did not serve /health: ${out}`);
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(out).toContain(`at http://0.0.0.0:${port}`);
        // The HEALTHCHECK, as Docker runs it: in the folder, with the image's environment.
        const [hcCmd, ...hcArgs] = execForm(steps('HEALTHCHECK')[0].args.replace(/^.*?CMD\s+/, ''));
        await expect(
          exec(hcCmd === 'node' ? process.execPath : hcCmd, hcArgs, { cwd: app, env }),
        ).resolves.toBeDefined();
        const unauthorized = await exec(process.execPath, hcArgs, {
          cwd: app,
          env: { ...env, SEAHAVEN_TOKEN: 'wrong' },
        }).then(
          () => 0,
          (e: { code: number }) => e.code,
        );
        expect(unauthorized).toBe(1);
        // A graded episode through it.
        await using client = await SeahavenClient.connect(base, { token: 'image-test-token' });
        await client.reset({ task: 'add_lead', seed: 1 });
        await client.call('create_contact', {
          name: 'Ada Lovelace',
          email: 'ada.lovelace@acmerobotics.example',
          company_id: 'cmp_acme',
          title: 'Head of Research',
          stage: 'lead',
        });
        expect((await client.submit()).reward).toBe(1);
        // SIGTERM drains well within the Deployment's terminationGracePeriodSeconds (15 s, less the 5 s preStop).
        const t = Date.now();
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(Date.now() - t).toBeLessThan(10_000);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }, 90_000);
});

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec: any;
}

const MANIFESTS = join(root, 'deploy/kubernetes/seahaven.yaml');
const manifests = (): Manifest[] =>
  parseAllDocuments(readFileSync(MANIFESTS, 'utf8')).map((d) => d.toJS() as Manifest);

/** The kubernetes-models class for an apiVersion and kind (apps/v1 Deployment → kubernetes-models/apps/v1). */
async function modelOf(m: Manifest): Promise<new (data: unknown) => { validate(): void }> {
  const [group, version] = m.apiVersion.includes('/')
    ? m.apiVersion.split('/')
    : ['', m.apiVersion];
  const mod = (await import(
    group === '' ? `kubernetes-models/${version}` : `kubernetes-models/${group}/${version}`
  )) as Record<string, new (data: unknown) => { validate(): void }>;
  if (mod[m.kind] === undefined)
    throw new Error(`kubernetes-models has no ${m.kind} in ${m.apiVersion}`);
  return mod[m.kind];
}

describe('deploy/kubernetes', () => {
  it('is valid against the Kubernetes schemas', async () => {
    const all = manifests();
    expect(all.map((m) => `${m.apiVersion} ${m.kind}/${m.metadata.name}`)).toEqual([
      'apps/v1 Deployment/seahaven',
      'v1 Service/seahaven',
      'v1 Service/seahaven-sticky',
      'v1 Service/seahaven-pods',
      'autoscaling/v2 HorizontalPodAutoscaler/seahaven',
      'policy/v1 PodDisruptionBudget/seahaven',
    ]);
    for (const m of all) {
      const Model = await modelOf(m);
      expect(() => new Model(m).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
    // The check catches mistakes: a probe without a handler's required field, a wrong type.
    const bad = structuredClone(all[0]);
    bad.spec.template.spec.containers[0].readinessProbe = { httpGet: { path: '/health' } };
    bad.spec.replicas = 'two';
    const Deployment = await modelOf(bad);
    expect(() => new Deployment(bad).validate()).toThrow(/port|integer/);
  });

  it('probes /health, drains within the grace period, requests resources and scales the Deployment', () => {
    const [deploy, service, sticky, headless, hpa, pdb] = manifests();
    const pod = deploy.spec.template.spec;
    const [c] = pod.containers;
    const probe = ['node', 'deploy/healthcheck.mjs'];
    expect(c.readinessProbe.exec.command).toEqual(probe);
    expect(c.livenessProbe.exec.command).toEqual(probe);
    const dockerHealth = execForm(steps('HEALTHCHECK')[0].args.replace(/^.*?CMD\s+/, ''));
    expect(dockerHealth).toEqual(probe); // the same check as the image's HEALTHCHECK
    // preStop, then the drain (about 2 s after the last requests): the grace period covers both.
    const preStop = Number(c.lifecycle.preStop.exec.command[1]);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + 2 + 5);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(c.resources.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    const env = Object.fromEntries(
      (c.env as { name: string; value?: string }[]).map((e) => [e.name, e]),
    );
    expect(Number(env.SEAHAVEN_WORKERS.value)).toBe(Number(c.resources.requests.cpu)); // one worker per CPU requested
    expect(c.ports).toEqual([
      { name: 'http', containerPort: Number(envOf(runtime).PORT), protocol: 'TCP' },
    ]);

    const labels = deploy.spec.template.metadata.labels;
    expect(deploy.spec.selector.matchLabels).toEqual(labels);
    for (const s of [service, sticky, headless]) {
      expect(s.spec.selector).toEqual(labels);
      expect(s.spec.ports[0].targetPort).toBe('http');
    }
    expect(service.spec.sessionAffinity).toBeUndefined(); // WebSockets need none
    expect(sticky.spec.sessionAffinity).toBe('ClientIP'); // the session-aware HTTP routes do
    expect(headless.spec.clusterIP).toBe('None');
    expect(hpa.spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: deploy.metadata.name,
    });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(deploy.spec.replicas);
    expect(pdb.spec.selector.matchLabels).toEqual(labels);
  });

  it('renders with kubectl kustomize (offline), where kubectl is installed', async () => {
    const kubectl = await exec('kubectl', ['version', '--client']).then(
      () => true,
      () => false,
    );
    if (!kubectl) {
      console.log(
        '[kubernetes] kubectl is not installed: skipped `kubectl kustomize deploy/kubernetes` (the schema check above ran)',
      );
      return;
    }
    const { stdout } = await exec('kubectl', ['kustomize', join(root, 'deploy/kubernetes')]);
    const rendered = parseAllDocuments(stdout).map((d) => d.toJS() as Manifest);
    expect(rendered.map((m) => m.kind).sort()).toEqual(
      manifests()
        .map((m) => m.kind)
        .sort(),
    );
    expect(
      rendered.find((m) => m.kind === 'Deployment')!.spec.template.spec.containers[0].image,
    ).toBe('seahaven:0.1.0');
  });
});
