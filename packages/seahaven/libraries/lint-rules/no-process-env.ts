/** Disallow `process.env` in world code: a world must behave the same on every machine. */
import { createRule } from './create-rule.ts';
import { globalReferences, moduleReferences, reads, type TraceMap } from './references.ts';

const processMap: TraceMap = { env: reads };

export default createRule({
  name: 'no-process-env',
  meta: {
    type: 'problem',
    docs: { description: 'Disallow `process.env` in world code', recommended: true },
    schema: [],
    messages: {
      processEnv:
        '`process.env` differs between machines, so the same episode could behave differently elsewhere. Put settings in the world definition (or a fixture) instead.',
    },
  },
  create(context) {
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, { process: processMap }))
          context.report({ node: ref.node, messageId: 'processEnv' });
        for (const ref of moduleReferences(context, { process: processMap }))
          context.report({ node: ref.node, messageId: 'processEnv' });
      },
    };
  },
});
