/** Disallow the host's monotonic and process clocks (`performance.now()`, `process.hrtime()`, `process.uptime()`). */
import { createRule } from './create-rule.ts';
import { ctxNameAt } from './ctx-replacement.ts';
import {
  escapes,
  globalReferences,
  moduleReferences,
  reads,
  readsAndCalls,
  withMembers,
  type TraceMap,
  type TrackedReference,
} from './references.ts';

const performanceMap: TraceMap = { now: readsAndCalls, timeOrigin: reads };
const processMap: TraceMap = {
  hrtime: withMembers(readsAndCalls, { bigint: readsAndCalls }),
  uptime: readsAndCalls,
};
const globalsMap: TraceMap = { performance: performanceMap, process: processMap };
const modulesMap: TraceMap = { perf_hooks: { performance: performanceMap }, process: processMap };

export default createRule({
  name: 'no-monotonic-clock',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow `performance.now()`, `process.hrtime()` and `process.uptime()` in world code',
      recommended: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      hostTimer:
        '`{{name}}` reads a clock of the host process, so a replay sees other readings. World time is `ctx.clock.now()`; measure durations in the harness, not in tools.',
      useClockNow: 'Use `{{ctx}}.clock.now()` instead.',
    },
  },
  create(context) {
    const report = (ref: TrackedReference, fromModule: boolean) => {
      const last = ref.path[ref.path.length - 1];
      if (ref.kind === 'read' && last !== 'timeOrigin' && !escapes(ref.node)) return;
      // Module paths start with the module: ['node:perf_hooks', 'performance', 'now'], ['node:process', 'hrtime'].
      const named = !fromModule
        ? ref.path
        : ref.path[0].endsWith('perf_hooks')
          ? ref.path.slice(1)
          : ['process', ...ref.path.slice(1)];
      const name = named.join('.') + (last === 'timeOrigin' ? '' : '()');
      const ctx = ctxNameAt(context, ref.node);
      const isPerformanceNow = named.join('.') === 'performance.now' && ref.kind === 'call';
      context.report({
        node: ref.node,
        messageId: 'hostTimer',
        data: { name },
        suggest:
          ctx && isPerformanceNow
            ? [
                {
                  messageId: 'useClockNow',
                  data: { ctx },
                  fix: (fixer) => fixer.replaceText(ref.node, `${ctx}.clock.now()`),
                },
              ]
            : [],
      });
    };
    return {
      'Program:exit'() {
        for (const ref of globalReferences(context, globalsMap)) report(ref, false);
        for (const ref of moduleReferences(context, modulesMap)) report(ref, true);
      },
    };
  },
});
