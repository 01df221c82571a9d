/** The RuleTester set-up the rule tests share, and a check that pins the text of every rule message. */
import { fileURLToPath } from 'node:url';
import { RuleTester, type RunTests } from '@typescript-eslint/rule-tester';
import type { TSESLint } from '@typescript-eslint/utils';
import { afterAll, describe, expect, it } from 'vitest';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });

type Rule<M extends string, O extends readonly unknown[]> = TSESLint.RuleModule<M, O> & {
  name: string;
};
type Data = Record<string, string>;

let plain: RuleTester | undefined;
let typed: RuleTester | undefined;

/** The TypeScript parser; with `types`, also a program over test-fixtures/typed, where every case is linted as file.ts. */
function tester(types: boolean): RuleTester {
  if (!types) return (plain ??= new RuleTester());
  const tsconfigRootDir = fileURLToPath(new URL('./test-fixtures/typed/', import.meta.url));
  return (typed ??= new RuleTester({
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir } },
  }));
}

/**
 * Run a rule's valid and invalid cases. Every error and suggestion must give the `data` of its message: the tester
 * then compares the reported text with the message rendered from that data, which `testMessages` pins.
 */
export function testRule<M extends string, O extends readonly unknown[]>(
  title: string,
  rule: Rule<M, O>,
  tests: RunTests<M, O>,
  { types = false } = {},
): void {
  tester(types).run(title, rule, { ...tests, assertionOptions: { requireData: true } });
}

/** ESLint's `{{ name }}` substitution; unknown names stay as they are. */
function render(template: string, data: Data = {}): string {
  return template.replace(/\{\{([^{}]+)\}\}/g, (whole, name: string) =>
    Object.hasOwn(data, name.trim()) ? data[name.trim()] : whole,
  );
}

/** Pin the text a user reads for every message of a rule: `[expected text, data it is rendered with]` by message id. */
export function testMessages<M extends string, O extends readonly unknown[]>(
  rule: Rule<M, O>,
  texts: Record<M, readonly [text: string, data?: Data]>,
): void {
  describe(`${rule.name} messages`, () => {
    it('lists every message of the rule', () => {
      expect(Object.keys(texts).sort()).toEqual(Object.keys(rule.meta.messages).sort());
    });
    for (const [id, [text, data]] of Object.entries(texts) as [M, readonly [string, Data?]][]) {
      it(id, () => expect(render(rule.meta.messages[id], data)).toBe(text));
    }
  });
}
