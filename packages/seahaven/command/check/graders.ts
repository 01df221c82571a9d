/** Task and grader checks (SH5xx): every task's grader must be sound (see `checkGrader` in seahaven/rewards). */
import { graderFindings } from '../../libraries/rewards/check.ts';
import type { Check } from './check.ts';

export const gradersCheck: Check = {
  name: 'graders',
  description:
    'every task: doing nothing does not pass, the gold solution scores 1, random calls do not score 1',
  run({ world }) {
    if (!world) return [];
    return graderFindings(world).map(({ code, severity, message, fix, task }) => ({
      code,
      severity,
      message,
      fix,
      location: { object: `task ${task}` },
    }));
  },
};
