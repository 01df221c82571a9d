/** Disallow timers and deferred callbacks (`setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask`, …) in world code. */
import { createRule } from './create-rule.ts';
import {
  globalReferences,
  moduleReferences,
  reads,
  type TraceMap,
  type TrackedReference,
} from './references.ts';

const TIMERS = [
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'requestAnimationFrame',
  'requestIdleCallback',
];
const globalsMap: TraceMap = {
  ...Object.fromEntries(TIMERS.map((t) => [t, reads])),
  process: { nextTick: reads },
};
const timerModule: TraceMap = { setTimeout: reads, setInterval: reads, setImmediate: reads };
const modulesMap: TraceMap = {
  timers: timerModule,
  'timers/promises': { ...timerModule, scheduler: reads },
};

export default createRule({
  name: 'no-timers',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow `setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask` and other deferred callbacks in world code',
      recommended: true,
    },
    schema: [],
    messages: {
      timer:
        '`{{name}}` runs its callback after the tool call has returned and its transaction has committed, at a time the host decides. Do the work inside the call; time in a world only moves with the virtual clock (`ctx.clock`), which the harness advances.',
    },
  },
  create(context) {
    const report = (ref: TrackedReference, fromModule: boolean) => {
      const name = (fromModule ? ref.path.slice(1) : ref.path).join('.') || ref.path[0];
      context.report({ node: ref.node, messageId: 'timer', data: { name } });
    };
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, globalsMap)) report(ref, false);
        for (const ref of moduleReferences(context, modulesMap)) report(ref, true);
      },
    };
  },
});
