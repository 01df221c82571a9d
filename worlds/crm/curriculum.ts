/** crm's curriculum: single-record edits first, lookups and multi-row updates next, multi-step work with traps last. */
import { defineCurriculum } from 'seahaven/curricula';

export const crmBasics = defineCurriculum({
  name: 'crm-basics',
  description:
    'Single-record edits first, then lookups and multi-row updates, then multi-step workflows with traps.',
  stages: [
    { name: 'easy', tasks: ['add_company', 'add_lead', 'log_call'] },
    { name: 'medium', tasks: ['forget_contact', 'globex_discount', 'qualify_globex_leads'] },
    {
      name: 'hard',
      tasks: ['dan_deal_slipped', 'dana_signed', 'retrofit_deal', 'lose_stale_negotiations'],
    },
  ],
  promote: { successRate: 0.8, window: 20 },
  review: 0.2,
  seed: 0,
});
