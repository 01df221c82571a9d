/**
 * Findings and the catalogue of their codes. Every code is stable and never reused: SH0xx loading, SH1xx schema,
 * SH2xx tools, SH3xx fixtures, SH4xx lint, SH5xx reserved for task and grader checks, SH6xx determinism.
 */
import { MOUNTED_INTERNAL_FIX } from '../../libraries/rewards/check.ts';

export type Severity = 'error' | 'warning';

/** Where a finding points: a file position, and/or the object concerned (`table contacts`, `tool create_contact`). */
export interface Location {
  file?: string;
  line?: number;
  column?: number;
  object?: string;
}

/** One problem found by a check. */
export interface Finding {
  /** `SH` and three digits; see docs/check-codes.md. */
  code: string;
  severity: Severity;
  /** What is wrong, in one sentence. */
  message: string;
  /** What to do about it, in one line. */
  fix: string;
  location?: Location;
  /** The check that reported it (set by `runChecks`). */
  check?: string;
}

interface CodeInfo {
  severity: Severity;
  title: string;
  /** The usual fix; a finding may give a more specific one. */
  fix: string;
}

/** Every code the built-in checks report. */
export const CHECK_CODES = {
  SH001: {
    severity: 'error',
    title: 'The world module fails to load',
    fix: 'Run the module on its own (`npx tsx <file>`) to see the stack, and fix the error.',
  },
  SH002: {
    severity: 'error',
    title: 'The module exports no world, or several',
    fix: 'Export the world as the default export: `export default defineWorld({ … })`.',
  },
  SH003: {
    severity: 'error',
    title: 'The world definition is refused',
    fix: 'Follow the message of `defineWorld`: it names the field to change.',
  },
  SH100: {
    severity: 'error',
    title: 'The schema does not execute',
    fix: 'Fix the DDL; try it in the sqlite3 shell.',
  },
  SH101: {
    severity: 'error',
    title: 'A table is not STRICT',
    fix: 'End the CREATE TABLE with `) STRICT` so column types are enforced.',
  },
  SH102: {
    severity: 'error',
    title: 'A table has no explicit primary key',
    fix: 'Declare a PRIMARY KEY (e.g. `id TEXT PRIMARY KEY`) so changes can name their rows.',
  },
  SH103: {
    severity: 'error',
    title: 'Time or randomness in a generated column',
    fix: 'Compute the value in the tool and store it in a plain column.',
  },
  SH104: {
    severity: 'error',
    title: 'Time or randomness in an index expression or partial-index WHERE',
    fix: 'Index plain columns; filter by time in the query, with the time as a `?` parameter.',
  },
  SH105: {
    severity: 'error',
    title: 'Time or randomness in a CHECK constraint',
    fix: "Check time rules in the tool (`ctx.clock.now()`); keep CHECK constraints to the row's own values.",
  },
  SH106: {
    severity: 'error',
    title: "The host's time zone in SQL (`'localtime'`)",
    fix: "Keep every time in UTC; drop the `'localtime'` (and `'utc'`) modifiers.",
  },
  SH107: {
    severity: 'error',
    title: 'The schema creates no tables',
    fix: 'Add at least one STRICT table with a PRIMARY KEY.',
  },
  SH201: {
    severity: 'error',
    title: 'A tool name is not lower snake case',
    fix: 'Rename the tool to match `^[a-z][a-z0-9_]{0,63}$`, like `create_contact`.',
  },
  SH202: {
    severity: 'error',
    title: 'A tool takes a name reserved for the protocol',
    fix: 'Rename the tool (e.g. `submit` → `submit_order`).',
  },
  SH203: {
    severity: 'error',
    title: 'A tool has no description',
    fix: 'Write one or two sentences telling the agent what the tool does and when to use it.',
  },
  SH204: {
    severity: 'warning',
    title: 'A tool description is too short to guide an agent',
    fix: 'Say what the tool does, what it returns, and when to use it (at least a short sentence).',
  },
  SH205: {
    severity: 'error',
    title: "A tool's input is not an object schema",
    fix: 'Declare the input as `z.object({ … })`; use `z.object({})` for no arguments.',
  },
  SH206: {
    severity: 'warning',
    title: "A tool's input schema accepts unknown keys",
    fix: 'Build the tool with `defineTool`, which makes the input strict (`additionalProperties: false`).',
  },
  SH207: {
    severity: 'warning',
    title: 'A tool argument has no JSON Schema type',
    fix: 'Use a zod type JSON Schema can express (string, number, enum, object, array), not `z.date()`, `z.custom()` or transforms.',
  },
  SH208: {
    severity: 'error',
    title: 'Two tools have the same name',
    fix: 'Rename one of them, or change the mount prefix of a composed world.',
  },
  SH209: {
    severity: 'error',
    title: 'A tools entry is not a tool',
    fix: 'Build every entry of `tools` with `defineTool({ name, description, input, run })`.',
  },
  SH210: {
    severity: 'warning',
    title: 'A tool description is very long',
    fix: 'Keep descriptions under 1,024 characters; move detail into argument descriptions.',
  },
  SH211: {
    severity: 'warning',
    title: 'A tool argument has no description',
    fix: "Add `.describe('…')` to the argument's zod type, saying what the value is, its format or units, and an example.",
  },
  SH212: {
    severity: 'warning',
    title: 'A tool name is a method of the TRL environment class',
    fix: 'Rename the tool (e.g. `get_reward` → `get_reward_points`); the TRL environment class uses the name itself.',
  },
  SH301: {
    severity: 'error',
    title: 'A fixture is not frozen',
    fix: 'Run `npx seahaven fixtures build --world <world>` and commit the images.',
  },
  SH302: {
    severity: 'error',
    title: 'A fixture sidecar is invalid',
    fix: 'Rebuild the fixture with `npx seahaven fixtures build --world <world>`; do not edit sidecars by hand.',
  },
  SH303: {
    severity: 'error',
    title: 'A fixture image does not match its recorded sha256',
    fix: 'Rebuild the fixture with `npx seahaven fixtures build --world <world>`; images are never edited by hand.',
  },
  SH304: {
    severity: 'error',
    title: 'A fixture was frozen for another schema',
    fix: 'The schema changed since the freeze: rebuild with `npx seahaven fixtures build --world <world>`.',
  },
  SH305: {
    severity: 'error',
    title: 'Rebuilding a fixture does not reproduce the committed image',
    fix: 'The builder or the code it uses changed: rebuild with `npx seahaven fixtures build --world <world>` and commit.',
  },
  SH306: {
    severity: 'error',
    title: 'A fixture builder is not deterministic',
    fix: 'Take every value from `ctx.rng`, `ctx.ids` and `ctx.clock` in the builder; no module state, no host clock or entropy.',
  },
  SH307: {
    severity: 'error',
    title: 'A fixture builder throws',
    fix: 'Fix the builder; run `npx seahaven fixtures build --world <world> --fixture <id>` to see the error.',
  },
  SH308: {
    severity: 'warning',
    title: 'A fixture sidecar is out of date with its declaration',
    fix: 'Rebuild with `npx seahaven fixtures build --world <world>` so the sidecar matches the declaration.',
  },
  SH309: {
    severity: 'warning',
    title: "The world's fixtures are not frozen to files",
    fix: "Add `fixturesDir: new URL('./fixtures/', import.meta.url)` to defineWorld and run `npx seahaven fixtures build`.",
  },
  SH310: {
    severity: 'error',
    title: 'A fixture declaration is refused',
    fix: 'Follow the message of `defineWorld`: it names the fixture field to change.',
  },
  SH311: {
    severity: 'warning',
    title: 'Fixture files that no fixture declares',
    fix: 'Run `npx seahaven fixtures build --world <world>`, which removes them, and commit the removal.',
  },
  SH401: {
    severity: 'error',
    title: 'World code breaks a determinism lint rule',
    fix: "Follow the rule's message; see docs/lint-rules/<rule>.md.",
  },
  SH402: { severity: 'error', title: 'A world file does not parse', fix: 'Fix the syntax error.' },
  SH403: {
    severity: 'warning',
    title: 'Lint could not run',
    fix: 'Install ESLint (`npm i -D eslint`) so the determinism rules can run.',
  },
  SH601: {
    severity: 'error',
    title: 'Two identical plays end in different states',
    fix: 'Something in a tool reads the host (clock, entropy, module state); use `ctx.clock`, `ctx.rng`, `ctx.ids` only.',
  },
  SH602: {
    severity: 'error',
    title: 'Two identical plays return different results',
    fix: 'A tool result depends on the host or on unordered reads; use `ctx` for time and randomness and `ORDER BY` in multi-row reads.',
  },
  SH603: {
    severity: 'error',
    title: 'A tool crashes on valid arguments',
    fix: 'Fix the exception; throw `ToolError(code, message)` for failures the agent should see.',
  },
  SH604: {
    severity: 'error',
    title: 'The determinism smoke cannot start an instance',
    fix: 'Make `world.instance({ fixture })` work for every fixture.',
  },
  SH605: {
    severity: 'error',
    title: "A mounted world's tool comes back internal",
    fix: MOUNTED_INTERNAL_FIX,
  },
} as const satisfies Record<string, CodeInfo>;

export type CheckCode = keyof typeof CHECK_CODES;

/** A finding for a built-in code, with the catalogue's severity and (unless given) its fix. */
export function finding(
  code: CheckCode,
  message: string,
  options: { fix?: string; location?: Location; severity?: Severity } = {},
): Finding {
  const info: CodeInfo = CHECK_CODES[code];
  const out: Finding = {
    code,
    severity: options.severity ?? info.severity,
    message,
    fix: options.fix ?? info.fix,
  };
  if (options.location) out.location = options.location;
  return out;
}
