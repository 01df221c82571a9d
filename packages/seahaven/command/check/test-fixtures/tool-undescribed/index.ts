// Tools whose arguments an agent (and TRL) cannot read about, and a tool named after a method of TRL's environment class.
import { defineTool, defineWorld, z } from '../../../../core/index.ts';
import { addItem, ITEMS_SCHEMA } from '../shared.ts';

const tagItem = defineTool({
  name: 'tag_item',
  description: 'Attach labels to an item and return the item with its labels.',
  input: z.object({
    id: z.string().min(1).describe('The item id, like itm_….'),
    note: z.string().max(200).nullable().optional(),
    labels: z.array(z.object({ text: z.string().min(1), colour: z.enum(['red', 'green']).describe('The label colour.') })).describe('Labels to attach.'),
    spots: z.array(z.array(z.object({ bin: z.number().int() }))).optional().describe('Bins per aisle the item may go in.'),
    placement: z.object({ row: z.number().int(), shelf: z.string().describe('The shelf name, like "A".') }).optional().describe('Where the item is kept.'),
  }),
  run: () => null,
});

const getReward = defineTool({
  name: 'get_reward',
  description: 'Show the reward points an item earns when it is sold.',
  input: z.object({ id: z.string().min(1).describe('The item id, like itm_….') }),
  run: () => 0,
});

export default defineWorld({ name: 'tool_undescribed', version: '1.0.0', schema: ITEMS_SCHEMA, tools: [addItem, tagItem, getReward] });
