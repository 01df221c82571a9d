/**
 * A tiny world with an HTTP face (`/api/notes`, keys `key_…`), for tests of faces in process and over the command
 * line: each key is an account of its own, a session's key is in its reset metadata, `/api/boom` is a routing bug,
 * and the server's own errors come back in the face's shape (`from: 'notes'`).
 */
import { defineHttpFace, defineOperation, defineTool, defineWorld, ToolError, z, type FaceReply } from '../../../core/index.ts';

export const addNote = defineOperation({
  name: 'PostNotes',
  run: (ctx, input: { text: string }) => {
    if (input.text === '') throw new ToolError('empty', 'text is empty');
    const id = ctx.ids.token('note_', 8);
    ctx.db.run('INSERT INTO notes (id, text, at) VALUES (?, ?, ?)', id, input.text, ctx.clock.iso());
    return { id, text: input.text };
  },
});
const listNotes = defineOperation({ name: 'GetNotes', run: (ctx) => ctx.db.all('SELECT id, text FROM notes ORDER BY at, id') });

export const json = (status: number, body: unknown): FaceReply => ({ status, body });

const notes = defineWorld({
  name: 'notes',
  version: '1',
  schema: 'CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL, at TEXT NOT NULL) STRICT;',
  tools: [defineTool({ name: 'count_notes', description: 'Count the notes.', input: z.object({}), run: (ctx) => ctx.db.one('SELECT count(*) AS n FROM notes') })],
  fixtures: { empty: { description: 'No notes.', now: '2026-06-01T09:00:00.000Z', build() {} } },
  http: defineHttpFace({
    basePath: '/api',
    operations: [addNote, listNotes],
    credential: (req) => (/^Bearer key_\w+$/.test(req.headers.authorization ?? '') ? { key: req.headers.authorization!.slice(7) } : { reply: json(401, { error: 'send Authorization: Bearer key_…' }) }),
    issueKey: (token) => `key_${token.replace(/\W/g, '')}`,
    route(req) {
      if (req.path === '/notes' && req.method === 'POST') return { operation: 'PostNotes', input: { text: String((JSON.parse(req.body || '{}') as { text?: unknown }).text ?? '') } };
      if (req.path === '/notes' && req.method === 'GET') return { operation: 'GetNotes', input: {} };
      if (req.path === '/boom') throw new Error('a routing bug');
      return { reply: json(404, { error: `no route ${req.method} ${req.path}` }) };
    },
    reply: (outcome) => (outcome.ok ? json(200, outcome.result) : json(400, { error: outcome.error.message })),
    errorReply: (status, message) => json(status, { error: message, from: 'notes' }),
  }),
});

export default notes;
