/**
 * Two copies of the kit in one process: a world (or a mounted world) built on one copy, run by a host on another.
 * The errors of either copy are recognised by the other, so the agent sees a tool's own error codes, not `internal`.
 */
import { describe, expect, it } from 'vitest';
import { CurriculumError } from '../../libraries/curricula/index.ts';
import { GraderError, NeedsDatabaseError } from '../../libraries/rewards/index.ts';
import {
  AgentError,
  AuthorError,
  defineTool,
  defineWorld,
  DefinitionError,
  InstanceError,
  SeahavenError,
  ToolError,
  z,
} from '../index.ts';

/** A second instance of a module: what a second copy of the kit (another path to the same files) defines. */
const secondCopy = (path: string): Promise<unknown> => import(`${path}?second-copy`);
const other = (await secondCopy('../errors.ts')) as typeof import('../errors.ts');
const otherGrade = (await secondCopy(
  '../../libraries/rewards/grade.ts',
)) as typeof import('../../libraries/rewards/grade.ts');
const otherOffline = (await secondCopy(
  '../../libraries/rewards/offline.ts',
)) as typeof import('../../libraries/rewards/offline.ts');
const otherCurricula = (await secondCopy(
  '../../libraries/curricula/errors.ts',
)) as typeof import('../../libraries/curricula/errors.ts');

describe('errors from another copy of the kit', () => {
  it('are a separate copy of the classes', () => {
    expect(other.ToolError).not.toBe(ToolError);
  });

  it("are instances of this copy's classes, and of the other's", () => {
    expect(new other.ToolError('x', 'y')).toBeInstanceOf(ToolError);
    expect(new ToolError('x', 'y')).toBeInstanceOf(other.ToolError);
    expect(new other.DefinitionError('d')).toBeInstanceOf(DefinitionError);
    expect(new other.InstanceError('unknown_fixture', 'm')).toBeInstanceOf(InstanceError);
  });

  it('are instances of the root and of their branch, of either copy', () => {
    for (const root of [SeahavenError, other.SeahavenError]) {
      expect(new other.ToolError('x', 'y')).toBeInstanceOf(root);
      expect(new ToolError('x', 'y')).toBeInstanceOf(root);
      expect(new other.DefinitionError('d')).toBeInstanceOf(root);
      expect(new InstanceError('destroyed', 'm')).toBeInstanceOf(root);
    }
    expect(new other.ToolError('x', 'y')).toBeInstanceOf(AgentError);
    expect(new other.ToolError('x', 'y')).not.toBeInstanceOf(AuthorError);
    expect(new other.DefinitionError('d')).toBeInstanceOf(AuthorError);
    expect(new other.InstanceError('destroyed', 'm')).toBeInstanceOf(AuthorError);
    expect(new other.InstanceError('destroyed', 'm')).not.toBeInstanceOf(AgentError);
    expect(new Error('m')).not.toBeInstanceOf(SeahavenError);
  });

  it('carry their code and kind', () => {
    expect([new other.ToolError('x', 'y').code, new other.ToolError('x', 'y').kind]).toEqual([
      'x',
      'agent',
    ]);
    expect([new other.DefinitionError('d').code, new other.DefinitionError('d').kind]).toEqual([
      'invalid_definition',
      'author',
    ]);
    expect([
      new InstanceError('destroyed', 'm').code,
      new InstanceError('destroyed', 'm').kind,
    ]).toEqual(['destroyed', 'author']);
  });

  it("include the libraries' author errors", () => {
    const errors = [
      new otherGrade.GraderError('g'),
      new otherOffline.NeedsDatabaseError('n', 'rowWhere', 'a query'),
      new otherCurricula.CurriculumError('unknown_run', 'r'),
    ];
    expect(errors.map((e) => [e.code, e.kind])).toEqual([
      ['invalid_grader', 'author'],
      ['needs_database', 'author'],
      ['unknown_run', 'author'],
    ]);
    expect(otherGrade.GraderError).not.toBe(GraderError);
    expect(errors[0]).toBeInstanceOf(GraderError);
    expect(errors[1]).toBeInstanceOf(NeedsDatabaseError);
    expect(errors[2]).toBeInstanceOf(CurriculumError);
    for (const e of errors) {
      expect(e).toBeInstanceOf(AuthorError);
      expect(e).toBeInstanceOf(SeahavenError);
      expect(e).not.toBeInstanceOf(AgentError);
    }
    expect(errors[0]).not.toBeInstanceOf(CurriculumError);
  });

  it('do not pass for one another, nor does a look-alike without the brand', () => {
    expect(new other.ToolError('x', 'y')).not.toBeInstanceOf(InstanceError);
    expect(new other.InstanceError('destroyed', 'm')).not.toBeInstanceOf(ToolError);
    const lookalike = Object.assign(new Error('m'), { name: 'ToolError', code: 'x' });
    expect(lookalike).not.toBeInstanceOf(ToolError);
    expect(null).not.toBeInstanceOf(ToolError);
  });

  it('keep ordinary instanceof for subclasses', () => {
    class PaymentError extends ToolError {}
    expect(new PaymentError('card_declined', 'declined')).toBeInstanceOf(PaymentError);
    expect(new PaymentError('card_declined', 'declined')).toBeInstanceOf(ToolError);
    expect(new ToolError('card_declined', 'declined')).not.toBeInstanceOf(PaymentError);
    expect(new PaymentError('card_declined', 'declined')).toBeInstanceOf(other.AgentError);
  });

  it('reach the agent as the tool error they are, also from a mounted world', () => {
    const billing = defineWorld({
      name: 'billing',
      version: '1.0.0',
      schema: 'CREATE TABLE invoices (id TEXT PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'pay_invoice',
          description: 'Pay an invoice by id.',
          input: z.object({ id: z.string().describe('Invoice id, like in_1.') }),
          run(_ctx, { id }) {
            throw new other.ToolError('resource_missing', `No such invoice: ${id}`, {
              param: 'id',
            });
          },
        }),
      ],
    });
    const host = defineWorld({
      name: 'shop',
      version: '1.0.0',
      schema: 'CREATE TABLE orders (id TEXT PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'noop',
          description: 'Do nothing at all.',
          input: z.object({}),
          run: () => null,
        }),
      ],
      worlds: { billing: { world: billing, prefix: 'billing_' } },
    });
    const inst = host.instance();
    try {
      expect(inst.call('billing_pay_invoice', { id: 'in_1' })).toEqual({
        ok: false,
        error: {
          code: 'resource_missing',
          message: 'No such invoice: in_1',
          details: { param: 'id' },
        },
      });
    } finally {
      inst.destroy();
    }
  });

  it('reach the agent from a subclass of AgentError of either copy', () => {
    class QuotaError extends other.AgentError {
      constructor(left: number) {
        super('quota_exceeded', `No calls left this hour (${left}); wait for the next hour.`, {
          left,
        });
      }
    }
    const world = defineWorld({
      name: 'quota',
      version: '1.0.0',
      schema: 'CREATE TABLE t (id INTEGER PRIMARY KEY) STRICT;',
      tools: [
        defineTool({
          name: 'spend',
          description: 'Spend one call of the quota.',
          input: z.object({}),
          run: () => {
            throw new QuotaError(0);
          },
        }),
      ],
    });
    const inst = world.instance();
    try {
      expect(inst.call('spend', {})).toEqual({
        ok: false,
        error: {
          code: 'quota_exceeded',
          message: 'No calls left this hour (0); wait for the next hour.',
          details: { left: 0 },
        },
      });
    } finally {
      inst.destroy();
    }
  });
});
