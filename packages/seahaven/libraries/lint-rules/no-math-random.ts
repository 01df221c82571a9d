/** Disallow `Math.random()`: the host's generator cannot be seeded, so episodes would not replay. */
import { createRule } from './create-rule.ts';
import { ctxNameAt } from './ctx-replacement.ts';
import { escapes, globalReferences, readsAndCalls, type TraceMap } from './references.ts';

const traceMap: TraceMap = { Math: { random: readsAndCalls } };

export default createRule({
  name: 'no-math-random',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow `Math.random()` in world code', recommended: true },
    hasSuggestions: true,
    schema: [],
    messages: {
      mathRandom:
        "`Math.random()` cannot be seeded, so a replay draws other numbers. Draw from the instance's seeded stream with `ctx.rng.next()` (or `ctx.rng.int(min, max)`, `ctx.rng.pick(items)`).",
      useRng: 'Use `{{ctx}}.rng.next()` instead.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, traceMap)) {
          if (ref.kind === 'read' && !escapes(ref.node)) continue;
          const ctx = ctxNameAt(context, ref.node);
          const text = ref.kind === 'call' ? `${ctx}.rng.next()` : `() => ${ctx}.rng.next()`;
          context.report({
            node: ref.node,
            messageId: 'mathRandom',
            suggest: ctx
              ? [
                  {
                    messageId: 'useRng',
                    data: { ctx },
                    fix: (fixer) => fixer.replaceText(ref.node, text),
                  },
                ]
              : [],
          });
        }
      },
    };
  },
});
