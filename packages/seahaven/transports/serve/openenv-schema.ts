/** The JSON Schemas of one world's OpenEnv messages (`/schema`, and the pieces `/openapi.json` is built from). */
import type { Endpoint } from './endpoint.ts';

/** A JSON Schema object with these properties (and `required`, and any other keywords). */
export const obj = (
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({ type: 'object', properties, required, ...extra });
export const str = { type: 'string' };
export const anyObject = { type: 'object', additionalProperties: true };

/** `/schema`: JSON Schemas of the step actions, the observations and the state. */
export function schemaOf(ep: Endpoint): { action: unknown; observation: unknown; state: unknown } {
  const metadata = {
    type: 'object',
    description: 'Ignored; clients that send pydantic actions include it.',
  };
  const trace = {
    type: 'boolean',
    description:
      "Seahaven's own, with the grader token only: the episode's trace (call log, change log, net changes) beside the grade.",
  };
  const action = {
    title: 'SeahavenAction',
    oneOf: [
      obj({ type: { const: 'list_tools' }, metadata }, ['type'], {
        title: 'ListToolsAction',
        additionalProperties: false,
      }),
      obj(
        {
          type: { const: 'call_tool' },
          tool_name: {
            type: 'string',
            description: `One of: ${ep.tools.map((t) => t.name).join(', ')}`,
          },
          arguments: anyObject,
          metadata,
        },
        ['tool_name'],
        { title: 'CallToolAction', additionalProperties: false },
      ),
      obj({ type: { const: 'submit' }, trace, metadata }, ['type'], {
        title: 'SubmitAction',
        additionalProperties: false,
        description: "Grade the session's task.",
      }),
      obj({ type: { const: 'grade' }, trace, metadata }, ['type'], {
        title: 'GradeAction',
        additionalProperties: false,
        description: "Seahaven's own: grade the session's task now; the episode goes on.",
      }),
      obj({ type: { const: 'fork' }, metadata }, ['type'], {
        title: 'ForkAction',
        additionalProperties: false,
        description:
          "Seahaven's own: snapshot the episode for a branch (WebSocket: a token for a reset's fork_token; HTTP: a new session).",
      }),
    ],
  };
  const tool = obj({ name: str, description: str, input_schema: anyObject }, [
    'name',
    'description',
    'input_schema',
  ]);
  const toolError = obj(
    {
      error_type: { enum: ['tool_not_found', 'invalid_args', 'execution_error', 'timeout'] },
      message: str,
    },
    ['error_type', 'message'],
    { additionalProperties: false },
  );
  const callResult = obj({
    content: { type: 'array', items: obj({ type: { const: 'text' }, text: str }) },
    structured_content: {},
    data: {},
    is_error: { type: 'boolean' },
  });
  // The agent view has id, label, score and weight; a session holding the grader token gets name and reason too.
  const criterion = obj(
    {
      id: str,
      label: str,
      name: str,
      score: { type: 'number' },
      weight: { type: 'number' },
      reason: str,
    },
    ['id', 'score', 'weight'],
  );
  const grade = obj(
    {
      reward: { type: 'number' },
      passed: { type: 'boolean' },
      criteria: { type: 'array', items: criterion },
    },
    ['reward', 'passed', 'criteria'],
  );
  const row = { type: 'object', additionalProperties: true };
  const change = obj(
    { table: str, op: { enum: ['insert', 'update', 'delete'] }, key: row, before: row, after: row },
    ['table', 'op', 'key'],
  );
  const episodeTrace = obj(
    {
      world: obj({ name: str, version: str }, ['name', 'version']),
      fixture_sha256: { type: ['string', 'null'] },
      calls: {
        type: 'array',
        items: obj(
          {
            index: { type: 'integer' },
            tool: str,
            args: {},
            ok: { type: 'boolean' },
            result: {},
            error: anyObject,
            result_dropped: { type: 'boolean' },
            result_bytes: { type: 'integer' },
          },
          ['tool', 'args', 'ok'],
        ),
      },
      change_log: {
        type: 'array',
        items: obj(
          {
            call: { type: 'integer' },
            tool: str,
            table: str,
            op: { enum: ['insert', 'update', 'delete'] },
            key: row,
            before: row,
            after: row,
          },
          ['call', 'tool', 'table', 'op', 'key'],
        ),
      },
      changes: { type: 'array', items: change },
    },
    ['world', 'fixture_sha256', 'calls', 'change_log', 'changes'],
    { title: 'EpisodeTrace' },
  );
  const observation = {
    title: 'SeahavenObservation',
    oneOf: [
      obj(
        {
          fixture: { type: ['string', 'null'] },
          seed: { type: 'integer' },
          now: str,
          task: { oneOf: [obj({ id: str, prompt: str }, ['id', 'prompt']), { type: 'null' }] },
          forked_from: str,
          tools: { type: 'array', items: tool },
        },
        ['fixture', 'seed', 'now', 'task', 'tools'],
        { title: 'ResetObservation' },
      ),
      obj({ tools: { type: 'array', items: tool } }, ['tools'], { title: 'ListToolsObservation' }),
      obj(
        {
          tool_name: str,
          result: { oneOf: [callResult, { type: 'null' }] },
          error: { oneOf: [toolError, { type: 'null' }] },
        },
        ['tool_name', 'result', 'error'],
        { title: 'CallToolObservation' },
      ),
      obj({ grade, trace: episodeTrace }, ['grade'], {
        title: 'SubmitObservation',
        description:
          'The reply to submit, and to grade; trace only when the action asked for it with the grader token.',
      }),
      obj(
        {
          fork: obj({
            token: str,
            expires_in_s: { type: 'number' },
            session_id: str,
            episode_id: str,
            api_key: str,
          }),
        },
        ['fork'],
        {
          title: 'ForkObservation',
          description:
            'WebSocket: {token, expires_in_s}. HTTP: {session_id, episode_id} of the new session (and api_key for a world with an HTTP face).',
        },
      ),
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
      changes: {
        type: 'array',
        items: obj(
          {
            table: str,
            op: { enum: ['insert', 'update', 'delete'] },
            key: anyObject,
            before: anyObject,
            after: anyObject,
          },
          ['table', 'op', 'key'],
        ),
      },
    },
    ['episode_id', 'step_count'],
    { title: 'SeahavenState' },
  );
  return { action, observation, state };
}
