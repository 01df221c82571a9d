/** Disallow reading the host's wall clock (`Date.now()`, `new Date()`, `Date()`); world time comes from `ctx.clock`. */
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.ts';
import { ctxNameAt } from './ctx-replacement.ts';
import {
  CALL,
  CONSTRUCT,
  escapes,
  globalReferences,
  readsAndCalls,
  type TraceMap,
} from './references.ts';

const traceMap = {
  Date: { [CALL]: true, [CONSTRUCT]: true, now: readsAndCalls },
} as unknown as TraceMap;

export default createRule({
  name: 'no-wall-clock',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow `Date.now()`, argument-less `new Date()` and `Date()` in world code',
      recommended: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      dateNow:
        "`Date.now()` reads the host's wall clock, so a replay sees another time. Read the virtual clock with `ctx.clock.now()`.",
      newDate:
        "`new Date()` without an argument reads the host's wall clock. Build the date from the virtual clock: `new Date(ctx.clock.now())`, or take `ctx.clock.iso()`.",
      dateCall:
        "`Date()` returns the host's current time as text. Use `ctx.clock.iso()`, or `new Date(ctx.clock.now())` for a date.",
      useClockNow: 'Use `{{ctx}}.clock.now()` instead.',
      useClockDate: 'Use `new Date({{ctx}}.clock.now())` instead.',
      useClockText: 'Use `new Date({{ctx}}.clock.now()).toString()` instead.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, traceMap)) {
          const ctx = ctxNameAt(context, ref.node);
          if (ref.path.length === 2) {
            if (ref.kind === 'read' && !escapes(ref.node)) continue;
            // A function handed on (`arr.map(Date.now)`) becomes a function of the virtual clock.
            const text = ref.kind === 'call' ? `${ctx}.clock.now()` : `() => ${ctx}.clock.now()`;
            context.report({
              node: ref.node,
              messageId: 'dateNow',
              suggest: ctx
                ? [
                    {
                      messageId: 'useClockNow',
                      data: { ctx },
                      fix: (fixer) => fixer.replaceText(ref.node, text),
                    },
                  ]
                : [],
            });
          } else if (ref.kind === 'construct' || ref.kind === 'call') {
            const node = ref.node as TSESTree.NewExpression | TSESTree.CallExpression;
            if (ref.kind === 'construct' && node.arguments.length > 0) continue;
            const callee = context.sourceCode.getText(node.callee);
            const construct = ref.kind === 'construct';
            const text = construct
              ? `new ${callee}(${ctx}.clock.now())`
              : `new ${callee}(${ctx}.clock.now()).toString()`;
            context.report({
              node,
              messageId: construct ? 'newDate' : 'dateCall',
              suggest: ctx
                ? [
                    {
                      messageId: construct ? 'useClockDate' : 'useClockText',
                      data: { ctx },
                      fix: (fixer) => fixer.replaceText(node, text),
                    },
                  ]
                : [],
            });
          }
        }
      },
    };
  },
});
