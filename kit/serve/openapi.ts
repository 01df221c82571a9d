/** Self-description for OpenEnv tooling: `/metadata`, `/schema` and `/openapi.json` of one world. */
import type { Endpoint } from './endpoint.ts';

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({ type: 'object', properties, required, ...extra });
const str = { type: 'string' };
const anyObject = { type: 'object', additionalProperties: true };

/** `/metadata`: name and description are required by OpenEnv; the readme lists fixtures, tasks and tools. */
export function metadataOf(ep: Endpoint): Record<string, string | null> {
  const w = ep.world;
  const lines = [`# ${w.name} ${w.version}`, '', w.description || `A Seahaven world.`, '', '## Fixtures', ''];
  for (const [id, f] of Object.entries(w.fixtures)) lines.push(`- \`${id}\`${id === ep.defaultFixture ? ' (default)' : ''}: ${f.description}`);
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

/** `/schema`: JSON Schemas of the step actions, the observations and the state. */
export function schemaOf(ep: Endpoint): { action: unknown; observation: unknown; state: unknown } {
  const metadata = { type: 'object', description: 'Ignored; clients that send pydantic actions include it.' };
  const trace = { type: 'boolean', description: "Seahaven's own, with the grader token only: the episode's trace (call log, change log, net changes) beside the grade." };
  const action = {
    title: 'SeahavenAction',
    oneOf: [
      obj({ type: { const: 'list_tools' }, metadata }, ['type'], { title: 'ListToolsAction', additionalProperties: false }),
      obj(
        { type: { const: 'call_tool' }, tool_name: { type: 'string', description: `One of: ${ep.tools.map((t) => t.name).join(', ')}` }, arguments: anyObject, metadata },
        ['tool_name'],
        { title: 'CallToolAction', additionalProperties: false },
      ),
      obj({ type: { const: 'submit' }, trace, metadata }, ['type'], { title: 'SubmitAction', additionalProperties: false, description: "Grade the session's task." }),
      obj({ type: { const: 'grade' }, trace, metadata }, ['type'], { title: 'GradeAction', additionalProperties: false, description: "Seahaven's own: grade the session's task now; the episode goes on." }),
      obj({ type: { const: 'fork' }, metadata }, ['type'], {
        title: 'ForkAction',
        additionalProperties: false,
        description: "Seahaven's own: snapshot the episode for a branch (WebSocket: a token for a reset's fork_token; HTTP: a new session).",
      }),
    ],
  };
  const tool = obj({ name: str, description: str, input_schema: anyObject }, ['name', 'description', 'input_schema']);
  const toolError = obj({ error_type: { enum: ['tool_not_found', 'invalid_args', 'execution_error', 'timeout'] }, message: str }, ['error_type', 'message'], { additionalProperties: false });
  const callResult = obj({ content: { type: 'array', items: obj({ type: { const: 'text' }, text: str }) }, structured_content: {}, data: {}, is_error: { type: 'boolean' } });
  // The agent view has id, label, score and weight; a session holding the grader token gets name and reason too.
  const criterion = obj({ id: str, label: str, name: str, score: { type: 'number' }, weight: { type: 'number' }, reason: str }, ['id', 'score', 'weight']);
  const grade = obj({ reward: { type: 'number' }, passed: { type: 'boolean' }, criteria: { type: 'array', items: criterion } }, ['reward', 'passed', 'criteria']);
  const row = { type: 'object', additionalProperties: true };
  const change = obj({ table: str, op: { enum: ['insert', 'update', 'delete'] }, key: row, before: row, after: row }, ['table', 'op', 'key']);
  const episodeTrace = obj({
    world: obj({ name: str, version: str }, ['name', 'version']),
    fixture_sha256: { type: ['string', 'null'] },
    calls: { type: 'array', items: obj({ index: { type: 'integer' }, tool: str, args: {}, ok: { type: 'boolean' }, result: {}, error: anyObject, result_dropped: { type: 'boolean' }, result_bytes: { type: 'integer' } }, ['tool', 'args', 'ok']) },
    change_log: { type: 'array', items: obj({ call: { type: 'integer' }, tool: str, table: str, op: { enum: ['insert', 'update', 'delete'] }, key: row, before: row, after: row }, ['call', 'tool', 'table', 'op', 'key']) },
    changes: { type: 'array', items: change },
  }, ['world', 'fixture_sha256', 'calls', 'change_log', 'changes'], { title: 'EpisodeTrace' });
  const observation = {
    title: 'SeahavenObservation',
    oneOf: [
      obj({ fixture: { type: ['string', 'null'] }, seed: { type: 'integer' }, now: str, task: { oneOf: [obj({ id: str, prompt: str }, ['id', 'prompt']), { type: 'null' }] }, forked_from: str, tools: { type: 'array', items: tool } }, ['fixture', 'seed', 'now', 'task', 'tools'], { title: 'ResetObservation' }),
      obj({ tools: { type: 'array', items: tool } }, ['tools'], { title: 'ListToolsObservation' }),
      obj({ tool_name: str, result: { oneOf: [callResult, { type: 'null' }] }, error: { oneOf: [toolError, { type: 'null' }] } }, ['tool_name', 'result', 'error'], { title: 'CallToolObservation' }),
      obj({ grade, trace: episodeTrace }, ['grade'], { title: 'SubmitObservation', description: 'The reply to submit, and to grade; trace only when the action asked for it with the grader token.' }),
      obj({ fork: obj({ token: str, expires_in_s: { type: 'number' }, session_id: str, episode_id: str, api_key: str }) }, ['fork'], {
        title: 'ForkObservation',
        description: 'WebSocket: {token, expires_in_s}. HTTP: {session_id, episode_id} of the new session (and api_key for a world with an HTTP face).',
      }),
    ],
  };
  const state = obj(
    {
      episode_id: str,
      step_count: { type: 'integer', minimum: 0 },
      format: { const: 'seahaven.state/1' },
      world: obj({ name: str, version: str }),
      fixture: { oneOf: [obj({ id: str, sha256: str }), { type: 'null' }] },
      seed: { type: 'integer' },
      clock: obj({ mode: { enum: ['fixed', 'tick'] }, now: str }),
      call_count: { type: 'integer' },
      task: str,
      changes: { type: 'array', items: obj({ table: str, op: { enum: ['insert', 'update', 'delete'] }, key: anyObject, before: anyObject, after: anyObject }, ['table', 'op', 'key']) },
    },
    ['episode_id', 'step_count'],
    { title: 'SeahavenState' },
  );
  return { action, observation, state };
}

/** `/openapi.json` for a world served under `base` (`''` or `/crm`). */
export function openApiOf(ep: Endpoint, base: string): Record<string, unknown> {
  const { action, observation, state } = schemaOf(ep);
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const validation = { description: 'Validation error', content: json({ $ref: '#/components/schemas/HTTPValidationError' }) };
  const sessionHeader = { name: 'X-Session-Id', in: 'header', required: false, schema: str, description: 'Session to use; default: the shared session.' };
  const stepResponse = obj({ observation, reward: { type: ['number', 'null'] }, done: { type: 'boolean' }, metadata: anyObject }, ['observation', 'reward', 'done', 'metadata']);
  const resetRequest = obj({
    fixture: str, seed: { type: 'integer', minimum: 0 }, episode_id: str, clock: { enum: ['fixed', 'tick'] }, now: str,
    task: str, curriculum: str, run_id: str, reward_mode: { enum: ['final', 'shaped'] }, fork_token: str, session_id: str,
    split: str, index: { type: 'integer', minimum: 0 }, submit_tool: { type: 'boolean' }, group: { type: 'string', maxLength: 128 }, group_size: { type: 'integer', minimum: 1, maximum: 1024 }, grader_token: str,
  }, [], { additionalProperties: false });
  const taskEntry = obj({
    id: str, world: str, fixture: str, prompt: str, difficulty: { type: ['number', 'null'] }, tags: { type: 'array', items: str },
    stages: { type: 'array', items: obj({ curriculum: str, stage: str }, ['curriculum', 'stage']) },
  }, ['id', 'world', 'fixture', 'prompt', 'difficulty', 'tags', 'stages']);
  const positioned = { allOf: [taskEntry, obj({ split: str, index: { type: 'integer' } }, ['split', 'index'])] };
  const splitBody = (more: Record<string, unknown>, required: string[] = []) => obj({ split: str, ...more }, ['split', ...required], { additionalProperties: false });
  const taskError = { description: 'Unknown split, or index out of range', content: json(obj({ detail: str })) };
  return {
    openapi: '3.1.0',
    info: { title: `Seahaven world ${ep.world.name}`, version: '1.0.0', description: `${ep.world.description} (world version ${ep.world.version})`.trim() },
    servers: [{ url: base || '/' }],
    paths: {
      '/reset': { post: { summary: 'Start an episode', parameters: [sessionHeader], requestBody: { required: false, content: json(resetRequest) }, responses: { 200: { description: 'Step payload', content: json(stepResponse) }, 422: validation } } },
      '/step': { post: { summary: 'Run one action', parameters: [sessionHeader], requestBody: { required: true, content: json(obj({ action, session_id: str }, ['action'])) }, responses: { 200: { description: 'Step payload', content: json(stepResponse) }, 422: validation } } },
      '/state': { get: { summary: 'Current state', parameters: [sessionHeader, { name: 'session_id', in: 'query', required: false, schema: str }], responses: { 200: { description: 'State', content: json(state) } } } },
      '/health': { get: { summary: 'Health check', responses: { 200: { description: 'Healthy', content: json(obj({ status: { const: 'healthy' } })) } } } },
      '/metadata': { get: { summary: 'World metadata', responses: { 200: { description: 'Metadata', content: json(anyObject) } } } },
      '/schema': { get: { summary: 'Action, observation and state schemas', responses: { 200: { description: 'Schemas', content: json(anyObject) } } } },
      '/tasks': {
        get: { summary: "The world's tasks (never how they are graded) and its splits", tags: ['Task API'], responses: { 200: { description: 'Tasks and splits', content: json(obj({ tasks: { type: 'array', items: taskEntry }, splits: { type: 'array', items: obj({ name: str, num_tasks: { type: 'integer' } }, ['name', 'num_tasks']) } }, ['tasks', 'splits'])) } } },
        post: { summary: "OpenEnv Task API: a split's tasks", tags: ['Task API'], requestBody: { required: true, content: json(splitBody({})) }, responses: { 200: { description: 'Tasks', content: json(obj({ tasks: { type: 'array', items: positioned }, env_name: str })) }, 400: taskError, 422: validation } },
      },
      '/splits': { get: { summary: 'OpenEnv Task API: the splits', tags: ['Task API'], responses: { 200: { description: 'Splits', content: json({ type: 'array', items: obj({ name: str, type: str }) }) } } } },
      '/num_tasks': { post: { summary: "OpenEnv Task API: a split's size", tags: ['Task API'], requestBody: { required: true, content: json(splitBody({})) }, responses: { 200: { description: 'Size', content: json(obj({ num_tasks: { type: 'integer' } })) }, 400: taskError, 422: validation } } },
      '/task': { post: { summary: 'OpenEnv Task API: the task at an index of a split', tags: ['Task API'], requestBody: { required: true, content: json(splitBody({ index: { type: 'integer', minimum: 0 } }, ['index'])) }, responses: { 200: { description: 'Task', content: json(obj({ task: positioned, env_name: str })) }, 400: taskError, 422: validation } } },
      '/task_range': { post: { summary: 'OpenEnv Task API: tasks start (inclusive) to stop (exclusive) of a split, as a Python slice', tags: ['Task API'], requestBody: { required: true, content: json(splitBody({ start: { type: ['integer', 'null'] }, stop: { type: ['integer', 'null'] } })) }, responses: { 200: { description: 'Tasks', content: json(obj({ tasks: { type: 'array', items: positioned }, env_name: str })) }, 400: taskError, 422: validation } } },
      '/mcp': { post: { summary: 'JSON-RPC: tools/list, tools/call, openenv/session/create, openenv/session/close', requestBody: { content: json(anyObject) }, responses: { 200: { description: 'JSON-RPC response', content: json(anyObject) } } } },
    },
    components: {
      schemas: {
        HTTPValidationError: obj({ detail: { type: 'array', items: obj({ type: str, loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: str, input: {} }, ['type', 'loc', 'msg']) } }),
      },
    },
  };
}
