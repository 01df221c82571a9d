/** Types of source-condition.mjs, the `seahaven` command's resolve hook, for the TypeScript that imports its rule. */
export declare const CONDITION: '@seahaven/source';
export declare function sourceRoute(specifier: string): 'kit' | 'world' | null;
export declare function resolve(
  specifier: string,
  context: { conditions: readonly string[]; parentURL?: string },
  nextResolve: (specifier: string, context: object) => Promise<unknown>,
): Promise<unknown>;
