/** Self-description for OpenEnv tooling: `/metadata`, `/schema` and `/openapi.json` of one world. */
import type { Endpoint } from './endpoint.ts';
import { anyObject, obj, schemaOf, str } from './openenv-schema.ts';

export { schemaOf };

/** `/metadata`: name and description are required by OpenEnv; the readme lists fixtures, tasks and tools. */
export function metadataOf(ep: Endpoint): Record<string, string | null> {
  const w = ep.world;
  const lines = [
    `# ${w.name} ${w.version}`,
    '',
    w.description || `A Seahaven world.`,
    '',
    '## Fixtures',
    '',
  ];
  for (const [id, f] of Object.entries(w.fixtures))
    lines.push(`- \`${id}\`${id === ep.defaultFixture ? ' (default)' : ''}: ${f.description}`);
  if (w.tasks.length > 0) {
    lines.push('', '## Tasks', '');
    for (const t of w.tasks) lines.push(`- \`${t.id}\` (fixture \`${t.fixture}\`): ${t.prompt}`);
  }
  lines.push('', '## Tools', '');
  for (const t of ep.tools) lines.push(`- \`${t.name}\`: ${t.description}`);
  return {
    name: w.name,
    description: w.description || `Seahaven world ${w.name}`,
    readme_content: lines.join('\n') + '\n',
    version: w.version,
    author: null,
    documentation_url: null,
  };
}

/** `/openapi.json` for a world served under `base` (`''` or `/crm`). */
export function openApiOf(ep: Endpoint, base: string): Record<string, unknown> {
  const { action, observation, state } = schemaOf(ep);
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const validation = {
    description: 'Validation error',
    content: json({ $ref: '#/components/schemas/HTTPValidationError' }),
  };
  const sessionHeader = {
    name: 'X-Session-Id',
    in: 'header',
    required: false,
    schema: str,
    description: 'Session to use; default: the shared session.',
  };
  const stepResponse = obj(
    {
      observation,
      reward: { type: ['number', 'null'] },
      done: { type: 'boolean' },
      metadata: anyObject,
    },
    ['observation', 'reward', 'done', 'metadata'],
  );
  const resetRequest = obj(
    {
      fixture: str,
      seed: { type: 'integer', minimum: 0 },
      episode_id: str,
      clock: { enum: ['fixed', 'tick'] },
      now: str,
      task: str,
      curriculum: str,
      run_id: str,
      reward_mode: { enum: ['final', 'shaped'] },
      fork_token: str,
      session_id: str,
      split: str,
      index: { type: 'integer', minimum: 0 },
      submit_tool: { type: 'boolean' },
      group: { type: 'string', maxLength: 128 },
      group_size: { type: 'integer', minimum: 1, maximum: 1024 },
      grader_token: str,
    },
    [],
    { additionalProperties: false },
  );
  const taskEntry = obj(
    {
      id: str,
      world: str,
      fixture: str,
      prompt: str,
      difficulty: { type: ['number', 'null'] },
      tags: { type: 'array', items: str },
      stages: {
        type: 'array',
        items: obj({ curriculum: str, stage: str }, ['curriculum', 'stage']),
      },
    },
    ['id', 'world', 'fixture', 'prompt', 'difficulty', 'tags', 'stages'],
  );
  const positioned = {
    allOf: [taskEntry, obj({ split: str, index: { type: 'integer' } }, ['split', 'index'])],
  };
  const splitBody = (more: Record<string, unknown>, required: string[] = []) =>
    obj({ split: str, ...more }, ['split', ...required], { additionalProperties: false });
  const taskError = {
    description: 'Unknown split, or index out of range',
    content: json(obj({ detail: str })),
  };
  return {
    openapi: '3.1.0',
    info: {
      title: `Seahaven world ${ep.world.name}`,
      version: '1.0.0',
      description: `${ep.world.description} (world version ${ep.world.version})`.trim(),
    },
    servers: [{ url: base || '/' }],
    paths: {
      '/reset': {
        post: {
          summary: 'Start an episode',
          parameters: [sessionHeader],
          requestBody: { required: false, content: json(resetRequest) },
          responses: {
            200: { description: 'Step payload', content: json(stepResponse) },
            422: validation,
          },
        },
      },
      '/step': {
        post: {
          summary: 'Run one action',
          parameters: [sessionHeader],
          requestBody: {
            required: true,
            content: json(obj({ action, session_id: str }, ['action'])),
          },
          responses: {
            200: { description: 'Step payload', content: json(stepResponse) },
            422: validation,
          },
        },
      },
      '/state': {
        get: {
          summary: 'Current state',
          parameters: [
            sessionHeader,
            { name: 'session_id', in: 'query', required: false, schema: str },
          ],
          responses: { 200: { description: 'State', content: json(state) } },
        },
      },
      '/health': {
        get: {
          summary: 'Health check',
          responses: {
            200: { description: 'Healthy', content: json(obj({ status: { const: 'healthy' } })) },
          },
        },
      },
      '/metadata': {
        get: {
          summary: 'World metadata',
          responses: { 200: { description: 'Metadata', content: json(anyObject) } },
        },
      },
      '/schema': {
        get: {
          summary: 'Action, observation and state schemas',
          responses: { 200: { description: 'Schemas', content: json(anyObject) } },
        },
      },
      '/tasks': {
        get: {
          summary: "The world's tasks (never how they are graded) and its splits",
          tags: ['Task API'],
          responses: {
            200: {
              description: 'Tasks and splits',
              content: json(
                obj(
                  {
                    tasks: { type: 'array', items: taskEntry },
                    splits: {
                      type: 'array',
                      items: obj({ name: str, num_tasks: { type: 'integer' } }, [
                        'name',
                        'num_tasks',
                      ]),
                    },
                  },
                  ['tasks', 'splits'],
                ),
              ),
            },
          },
        },
        post: {
          summary: "OpenEnv Task API: a split's tasks",
          tags: ['Task API'],
          requestBody: { required: true, content: json(splitBody({})) },
          responses: {
            200: {
              description: 'Tasks',
              content: json(obj({ tasks: { type: 'array', items: positioned }, env_name: str })),
            },
            400: taskError,
            422: validation,
          },
        },
      },
      '/splits': {
        get: {
          summary: 'OpenEnv Task API: the splits',
          tags: ['Task API'],
          responses: {
            200: {
              description: 'Splits',
              content: json({ type: 'array', items: obj({ name: str, type: str }) }),
            },
          },
        },
      },
      '/num_tasks': {
        post: {
          summary: "OpenEnv Task API: a split's size",
          tags: ['Task API'],
          requestBody: { required: true, content: json(splitBody({})) },
          responses: {
            200: { description: 'Size', content: json(obj({ num_tasks: { type: 'integer' } })) },
            400: taskError,
            422: validation,
          },
        },
      },
      '/task': {
        post: {
          summary: 'OpenEnv Task API: the task at an index of a split',
          tags: ['Task API'],
          requestBody: {
            required: true,
            content: json(splitBody({ index: { type: 'integer', minimum: 0 } }, ['index'])),
          },
          responses: {
            200: { description: 'Task', content: json(obj({ task: positioned, env_name: str })) },
            400: taskError,
            422: validation,
          },
        },
      },
      '/task_range': {
        post: {
          summary:
            'OpenEnv Task API: tasks start (inclusive) to stop (exclusive) of a split, as a Python slice',
          tags: ['Task API'],
          requestBody: {
            required: true,
            content: json(
              splitBody({
                start: { type: ['integer', 'null'] },
                stop: { type: ['integer', 'null'] },
              }),
            ),
          },
          responses: {
            200: {
              description: 'Tasks',
              content: json(obj({ tasks: { type: 'array', items: positioned }, env_name: str })),
            },
            400: taskError,
            422: validation,
          },
        },
      },
      '/mcp': {
        post: {
          summary:
            'JSON-RPC: tools/list, tools/call, openenv/session/create, openenv/session/close',
          requestBody: { content: json(anyObject) },
          responses: { 200: { description: 'JSON-RPC response', content: json(anyObject) } },
        },
      },
    },
    components: {
      schemas: {
        HTTPValidationError: obj({
          detail: {
            type: 'array',
            items: obj(
              {
                type: str,
                loc: { type: 'array', items: { type: ['string', 'integer'] } },
                msg: str,
                input: {},
              },
              ['type', 'loc', 'msg'],
            ),
          },
        }),
      },
    },
  };
}
