/** Disallow I/O in world code: file system, network, child processes, workers, dynamic `import()`, `fetch`. */
import { ASTUtils, AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { createRule } from './create-rule.ts';
import { calls, globalReferences, reads, type TraceMap } from './references.ts';

const NODE_MODULES = [
  'fs',
  'fs/promises',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'dns',
  'dns/promises',
  'child_process',
  'worker_threads',
  'cluster',
  'os',
  'readline',
  'readline/promises',
  'inspector',
];
const PACKAGES = ['undici', 'node-fetch', 'axios', 'ws', 'better-sqlite3', 'sqlite3'];
const IO_GLOBALS = ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'];

/** The banned module a specifier names (`node:fs/promises` → `node:fs/promises`), or null. */
function bannedModule(specifier: string): string | null {
  const bare = specifier.replace(/^node:/, '');
  if (NODE_MODULES.includes(bare)) return specifier;
  const pkg = specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : specifier.split('/')[0];
  return PACKAGES.includes(pkg) ? specifier : null;
}

export default createRule({
  name: 'no-io',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow file, network and process I/O (`node:fs`, `node:http`, `fetch`, `import()`, …) in world code',
      recommended: true,
    },
    schema: [],
    messages: {
      ioModule:
        "`{{name}}` reaches outside the world (files, network, processes or the host), so episodes stop being isolated and reproducible. Keep data in the schema and fixtures; read the schema with `readSql(import.meta.url, 'schema.sql')`.",
      ioGlobal:
        '`{{name}}` does network I/O, so episodes stop being isolated and reproducible. Model the remote system as tables and tools of the world (or a composed sub-world).',
      dynamicImport:
        'Dynamic `import()` loads code while a tool runs, outside its transaction and at a time the host decides. Import modules statically at the top of the file.',
    },
  },
  create(context) {
    const checkSource = (
      node: TSESTree.Node,
      source: TSESTree.StringLiteral | null | undefined,
    ) => {
      const name = source ? bannedModule(source.value) : null;
      if (name) context.report({ node, messageId: 'ioModule', data: { name } });
    };
    return {
      ImportDeclaration(node) {
        if (node.importKind === 'type') return;
        if (
          node.specifiers.length > 0 &&
          node.specifiers.every(
            (s) => s.type === AST_NODE_TYPES.ImportSpecifier && s.importKind === 'type',
          )
        )
          return;
        checkSource(node, node.source);
      },
      ExportNamedDeclaration(node) {
        if (node.exportKind !== 'type') checkSource(node, node.source);
      },
      ExportAllDeclaration(node) {
        if (node.exportKind !== 'type') checkSource(node, node.source);
      },
      TSImportEqualsDeclaration(node) {
        if (
          node.importKind === 'type' ||
          node.moduleReference.type !== AST_NODE_TYPES.TSExternalModuleReference
        )
          return;
        checkSource(node, node.moduleReference.expression);
      },
      ImportExpression(node) {
        context.report({ node, messageId: 'dynamicImport' });
      },
      'Program:exit'() {
        const scope = context.sourceCode.getScope(context.sourceCode.ast);
        for (const ref of globalReferences(context, { require: calls })) {
          const arg = (ref.node as TSESTree.CallExpression).arguments[0];
          const specifier = arg ? ASTUtils.getStringIfConstant(arg, scope) : null;
          const name = specifier === null ? null : bannedModule(specifier);
          if (name) context.report({ node: ref.node, messageId: 'ioModule', data: { name } });
        }
        const globalsMap: TraceMap = Object.fromEntries(IO_GLOBALS.map((g) => [g, reads]));
        for (const ref of globalReferences(context, globalsMap))
          context.report({
            node: ref.node,
            messageId: 'ioGlobal',
            data: { name: ref.path.join('.') },
          });
      },
    };
  },
});
