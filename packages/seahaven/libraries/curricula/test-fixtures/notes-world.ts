/** A tiny notes world with six tasks at three difficulties, for the curriculum tests. */
import { defineTask, defineTool, defineWorld, ToolError, z, type Grade, type GradeTarget, type World } from '../../../core/index.ts';
import { defineCurriculum, type Curriculum } from '../define.ts';

const schema = `
CREATE TABLE tags (name TEXT PRIMARY KEY, color TEXT NOT NULL) STRICT;
CREATE TABLE notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, tag TEXT REFERENCES tags(name), archived INTEGER NOT NULL DEFAULT 0) STRICT;
`;

const addTag = defineTool({
  name: 'add_tag',
  description: 'Create a tag.',
  input: z.object({ name: z.string().min(1), color: z.string().min(1) }),
  run(ctx, { name, color }) {
    if (ctx.db.one('SELECT name FROM tags WHERE name = ?', name)) throw new ToolError('exists', `tag "${name}" exists`);
    ctx.db.run('INSERT INTO tags (name, color) VALUES (?, ?)', name, color);
    return { name, color };
  },
});

const addNote = defineTool({
  name: 'add_note',
  description: 'Write a note, optionally tagged.',
  input: z.object({ title: z.string().min(1), tag: z.string().optional() }),
  run(ctx, { title, tag }) {
    if (tag !== undefined && !ctx.db.one('SELECT name FROM tags WHERE name = ?', tag)) throw new ToolError('unknown_tag', `no tag "${tag}"`);
    const id = ctx.ids.token('note_', 8);
    ctx.db.run('INSERT INTO notes (id, title, tag) VALUES (?, ?, ?)', id, title, tag ?? null);
    return { id, title, tag: tag ?? null };
  },
});

const findNotes = defineTool({
  name: 'find_notes',
  description: 'List notes, optionally by tag.',
  input: z.object({ tag: z.string().optional() }),
  run(ctx, { tag }) {
    return tag === undefined ? ctx.db.all('SELECT * FROM notes ORDER BY id') : ctx.db.all('SELECT * FROM notes WHERE tag = ? ORDER BY id', tag);
  },
});

const tagNote = defineTool({
  name: 'tag_note',
  description: 'Set the tag of a note.',
  input: z.object({ id: z.string(), tag: z.string() }),
  run(ctx, { id, tag }) {
    if (!ctx.db.one('SELECT name FROM tags WHERE name = ?', tag)) throw new ToolError('unknown_tag', `no tag "${tag}"`);
    if (ctx.db.run('UPDATE notes SET tag = ? WHERE id = ?', tag, id).changes === 0) throw new ToolError('not_found', `no note "${id}"`);
    return { id, tag };
  },
});

const archiveNote = defineTool({
  name: 'archive_note',
  description: 'Archive a note.',
  input: z.object({ id: z.string() }),
  run(ctx, { id }) {
    if (ctx.db.run('UPDATE notes SET archived = 1 WHERE id = ?', id).changes === 0) throw new ToolError('not_found', `no note "${id}"`);
    return { id, archived: true };
  },
});

function verdict(name: string, passed: boolean): Grade {
  return { reward: passed ? 1 : 0, passed, criteria: [{ id: 'verdict', name, score: passed ? 1 : 0, weight: 1, reason: passed ? 'done' : 'not done' }] };
}

const count = (t: GradeTarget, sql: string, ...params: unknown[]) => Number(Object.values(t.query(sql, ...params)[0])[0]);

/** Build the notes world, optionally with curricula (and under another name). */
export function notesWorld(curricula: Curriculum[] = [], name = 'notes'): World {
  return defineWorld({
    name,
    version: '1.0.0',
    schema,
    tools: [addTag, addNote, findNotes, tagNote, archiveNote],
    fixtures: {
      empty: { description: 'No notes.', difficulty: 1, now: '2026-06-01T09:00:00.000Z', build() {} },
      shelf: {
        description: 'Three tags and thirty notes, some drafts.',
        difficulty: 2,
        now: '2026-06-01T09:00:00.000Z',
        build(ctx) {
          for (const [name, color] of [['draft', 'grey'], ['old', 'brown'], ['home', 'green']]) ctx.db.run('INSERT INTO tags (name, color) VALUES (?, ?)', name, color);
          for (let i = 1; i <= 30; i++) {
            const tag = i % 5 === 0 ? 'draft' : i % 7 === 0 ? 'old' : i % 3 === 0 ? 'home' : null;
            ctx.db.run('INSERT INTO notes (id, title, tag) VALUES (?, ?, ?)', `note_${String(i).padStart(2, '0')}`, `Note ${i}`, tag);
          }
        },
      },
    },
    tasks: [
      defineTask({
        id: 'add_note',
        fixture: 'empty',
        difficulty: 1,
        prompt: 'Write a note titled "Groceries".',
        grade: (t) => verdict('note', count(t, "SELECT count(*) FROM notes WHERE title = 'Groceries'") === 1),
        gold: (inst) => { inst.call('add_note', { title: 'Groceries' }); },
      }),
      defineTask({
        id: 'add_tag',
        fixture: 'empty',
        difficulty: 1,
        prompt: 'Create a blue tag named "work".',
        grade: (t) => verdict('tag', count(t, "SELECT count(*) FROM tags WHERE name = 'work' AND color = 'blue'") === 1),
        gold: (inst) => { inst.call('add_tag', { name: 'work', color: 'blue' }); },
      }),
      defineTask({
        id: 'tagged_note',
        fixture: 'empty',
        difficulty: 2,
        prompt: 'Create a green tag "garden" and a note "Plant basil" with that tag.',
        grade: (t) => verdict('tagged', count(t, "SELECT count(*) FROM notes WHERE title = 'Plant basil' AND tag = 'garden'") === 1),
        gold: (inst) => {
          inst.call('add_tag', { name: 'garden', color: 'green' });
          inst.call('add_note', { title: 'Plant basil', tag: 'garden' });
        },
      }),
      defineTask({
        id: 'archive_one',
        fixture: 'shelf',
        difficulty: 2,
        prompt: 'Archive the note titled "Note 7".',
        grade: (t) => verdict('archived', count(t, "SELECT count(*) FROM notes WHERE title = 'Note 7' AND archived = 1") === 1 && t.changes().length === 1),
        gold: (inst) => {
          const all = inst.call('find_notes', { tag: 'old' });
          const note = (all.ok ? (all.result as { id: string; title: string }[]) : []).find((n) => n.title === 'Note 7')!;
          inst.call('archive_note', { id: note.id });
        },
      }),
      defineTask({
        id: 'finalize_drafts',
        fixture: 'shelf',
        difficulty: 3,
        prompt: 'Create a tag "final" (any color) and move every draft note to it.',
        grade: (t) => verdict('finalized', count(t, "SELECT count(*) FROM notes WHERE tag = 'draft'") === 0 && count(t, "SELECT count(*) FROM notes WHERE tag = 'final'") === 6),
        gold: (inst) => {
          inst.call('add_tag', { name: 'final', color: 'gold' });
          const drafts = inst.call('find_notes', { tag: 'draft' });
          for (const n of drafts.ok ? (drafts.result as { id: string }[]) : []) inst.call('tag_note', { id: n.id, tag: 'final' });
        },
      }),
      defineTask({
        id: 'archive_old',
        fixture: 'shelf',
        difficulty: 3,
        prompt: 'Archive every note tagged "old" and every note tagged "home".',
        grade: (t) => verdict('cleaned', count(t, "SELECT count(*) FROM notes WHERE tag IN ('old', 'home') AND archived = 0") === 0),
        gold: (inst) => {
          for (const tag of ['old', 'home']) {
            const notes = inst.call('find_notes', { tag });
            for (const n of notes.ok ? (notes.result as { id: string }[]) : []) inst.call('archive_note', { id: n.id });
          }
        },
      }),
    ],
    curricula,
  });
}

/** The tasks of the notes world by declared difficulty. */
export const NOTES_STAGES = [
  { name: 'easy', tasks: ['add_note', 'add_tag'] },
  { name: 'medium', tasks: ['tagged_note', 'archive_one'] },
  { name: 'hard', tasks: ['finalize_drafts', 'archive_old'] },
];

/** The notes world with a three-stage curriculum, for the command line. */
export default notesWorld([defineCurriculum({ name: 'basics', stages: NOTES_STAGES, promote: { successRate: 0.8, window: 20 }, review: 0.2, seed: 7 })]);
