/** The declaration of a fixture, as `defineWorld({ fixtures })` takes it. Building and loading live in fixtures.ts. */
import type { Ctx } from './ctx.ts';

/** A frozen starting state, declared with a deterministic builder. */
export interface FixtureSpec {
  description: string;
  /** 1 = easiest. */
  difficulty?: number;
  /** The fixture's clock reading, ISO-8601 with `Z`. */
  now: string;
  /** Start from another fixture's state. */
  parent?: string;
  /** Fill the database; runs under a fixed clock at `now` and a fixed seed. */
  build(ctx: Ctx): void;
}
