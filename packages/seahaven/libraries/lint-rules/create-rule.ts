/** The rule factory every seahaven rule is made with: typescript-eslint's `RuleCreator`, with links to the bundled docs. */
import { existsSync } from 'node:fs';
import {
  ESLintUtils,
  type ParserServicesWithTypeInformation,
  type TSESLint,
} from '@typescript-eslint/utils';

/** What each rule's `meta.docs` carries besides `description`. */
export interface SeahavenRuleDocs {
  /** Part of `configs.recommended`. */
  recommended: boolean;
  /** Uses type information when the consumer provides it; works without it. */
  typeAware?: boolean;
}

// The docs travel inside a packed package, at its root: ../../docs from the sources, ../../../docs from the build
// (dist/libraries/lint-rules/). In the repository they sit at its root, ../../../../docs from the sources.
const docsBase = new URL(
  ['../../docs/lint-rules/', '../../../docs/lint-rules/', '../../../../docs/lint-rules/'].find(
    (p) => existsSync(new URL(p, import.meta.url)),
  ) ?? '../../docs/lint-rules/',
  import.meta.url,
);

/** Create a rule whose `meta.docs.url` points at `docs/lint-rules/<name>.md`. */
export const createRule = ESLintUtils.RuleCreator<SeahavenRuleDocs>(
  (name) => new URL(`${name}.md`, docsBase).href,
);

/**
 * The type checker's services when the consumer lints with type information, else null. Rules call this instead of
 * `getParserServices`, which throws under other parsers (espree) and without a program.
 */
export function typeServices(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
): ParserServicesWithTypeInformation | null {
  const services = context.sourceCode.parserServices;
  if (services?.program == null || services.esTreeNodeToTSNodeMap == null) return null;
  return ESLintUtils.getParserServices(context, true) as ParserServicesWithTypeInformation;
}
