/** The crm world: the quickstart example. Companies, contacts, a deal pipeline and activities. */
import { defineWorld, readSql } from 'seahaven';
import { tools } from './tools.ts';
import { addStoryRows, populate } from './seed-data.ts';
import { tasks } from './tasks.ts';
import { crmBasics } from './curriculum.ts';

export const crm = defineWorld({
  name: 'crm',
  version: '1.0.0',
  description: 'A small CRM: companies, contacts, a deal pipeline and logged activities.',
  schema: readSql(import.meta.url, 'schema.sql'),
  tools,
  tasks,
  curricula: [crmBasics],
  fixturesDir: new URL('./fixtures/', import.meta.url),
  fixtures: {
    empty: {
      description: 'No rows at all: an account on its first day.',
      difficulty: 1,
      now: '2026-06-01T09:00:00.000Z',
      build() {},
    },
    small_startup: {
      description:
        "A startup's CRM: about 25 companies, 90 contacts, 50 deals and their activity history (~100 KB).",
      difficulty: 2,
      now: '2026-06-01T09:00:00.000Z',
      build(ctx) {
        addStoryRows(ctx);
        populate(ctx, {
          companies: 24,
          contactsPerCompany: [2, 5],
          dealsPerCompany: [1, 3],
          activitiesPerContact: [0, 2],
          historyDays: 365,
        });
      },
    },
    big_co: {
      description:
        'An enterprise CRM: about 900 companies, 6,300 contacts, 3,600 deals and 16,000 activities (~5 MB).',
      difficulty: 3,
      now: '2026-06-01T09:00:00.000Z',
      build(ctx) {
        addStoryRows(ctx);
        populate(ctx, {
          companies: 900,
          contactsPerCompany: [4, 10],
          dealsPerCompany: [2, 6],
          activitiesPerContact: [1, 4],
          historyDays: 1460,
        });
      },
    },
  },
});

export default crm;
