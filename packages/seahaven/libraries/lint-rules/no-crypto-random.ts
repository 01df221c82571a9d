/** Disallow host entropy from `crypto` (`randomUUID`, `getRandomValues`, `randomBytes`, `randomInt`, …); ids and draws come from `ctx`. */
import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.ts';
import { ctxNameAt } from './ctx-replacement.ts';
import {
  escapes,
  globalReferences,
  moduleReferences,
  readsAndCalls,
  type TraceMap,
  type TrackedReference,
} from './references.ts';

const webCrypto: TraceMap = { randomUUID: readsAndCalls, getRandomValues: readsAndCalls };
const globalsMap: TraceMap = { crypto: webCrypto };
const modulesMap: TraceMap = {
  crypto: {
    ...webCrypto,
    randomBytes: readsAndCalls,
    randomInt: readsAndCalls,
    randomFill: readsAndCalls,
    randomFillSync: readsAndCalls,
    pseudoRandomBytes: readsAndCalls,
    webcrypto: webCrypto,
  },
};

type MessageId = 'randomUUID' | 'randomInt' | 'randomBytes';

function messageFor(name: string): MessageId {
  return name === 'randomUUID' ? 'randomUUID' : name === 'randomInt' ? 'randomInt' : 'randomBytes';
}

/** `max - 1` as source text, folded when `max` is a number literal. */
function minusOne(text: string, node: TSESTree.Node): string {
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'number')
    return String(node.value - 1);
  const simple =
    node.type === AST_NODE_TYPES.Identifier ||
    node.type === AST_NODE_TYPES.MemberExpression ||
    node.type === AST_NODE_TYPES.CallExpression;
  return simple ? `${text} - 1` : `(${text}) - 1`;
}

export default createRule({
  name: 'no-crypto-random',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow `crypto.randomUUID()`, `getRandomValues()`, `randomBytes()` and `randomInt()` in world code',
      recommended: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      randomUUID:
        "`{{name}}` draws from the host's entropy, so ids differ on replay. Use `ctx.ids.uuid()`, which is seeded per instance.",
      randomInt:
        "`{{name}}` draws from the host's entropy, so a replay draws other numbers. Use `ctx.rng.int(min, max)` (both ends inclusive).",
      randomBytes:
        "`{{name}}` draws from the host's entropy, so a replay sees other bytes. Draw from `ctx.rng` (e.g. `ctx.rng.int(0, 255)` per byte), or use `ctx.ids.token(prefix)` for an opaque id.",
      useIdsUuid: 'Use `{{ctx}}.ids.uuid()` instead.',
      useRngInt: 'Use `{{ctx}}.rng.int(…)` instead (its upper bound is inclusive).',
    },
  },
  create(context) {
    const report = (ref: TrackedReference) => {
      if (ref.kind === 'read' && !escapes(ref.node)) return;
      const member = ref.path[ref.path.length - 1];
      const messageId = messageFor(member);
      const name = `crypto.${member}()`;
      const ctx = ctxNameAt(context, ref.node);
      const suggest: {
        messageId: 'useIdsUuid' | 'useRngInt';
        data: { ctx: string };
        fix: (f: any) => any;
      }[] = [];
      if (ctx && ref.kind === 'call') {
        const args = (ref.node as TSESTree.CallExpression).arguments;
        if (messageId === 'randomUUID' && args.length === 0) {
          suggest.push({
            messageId: 'useIdsUuid',
            data: { ctx },
            fix: (fixer) => fixer.replaceText(ref.node, `${ctx}.ids.uuid()`),
          });
        } else if (
          messageId === 'randomInt' &&
          (args.length === 1 || args.length === 2) &&
          args.every(
            (a) =>
              a.type !== AST_NODE_TYPES.SpreadElement &&
              a.type !== AST_NODE_TYPES.ArrowFunctionExpression &&
              a.type !== AST_NODE_TYPES.FunctionExpression,
          )
        ) {
          const text = args.map((a) => context.sourceCode.getText(a));
          const max = args[args.length - 1];
          const min = args.length === 2 ? text[0] : '0';
          const replacement = `${ctx}.rng.int(${min}, ${minusOne(text[text.length - 1], max)})`;
          suggest.push({
            messageId: 'useRngInt',
            data: { ctx },
            fix: (fixer) => fixer.replaceText(ref.node, replacement),
          });
        }
      }
      context.report({ node: ref.node, messageId, data: { name }, suggest });
    };
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, globalsMap)) report(ref);
        for (const ref of moduleReferences(context, modulesMap)) report(ref);
      },
    };
  },
});
