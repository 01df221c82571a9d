/**
 * Disallow formatting and parsing that depends on the host's locale or time zone: `toLocaleString()` & co. and `Intl.*`
 * without an explicit locale (and `timeZone` for dates), `new Date(y, m, d)`, zone-less date strings, `localeCompare`.
 */
import { ASTUtils, AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { createRule, typeServices } from './create-rule.ts';
import { CALL, CONSTRUCT, globalReferences, type TraceMap } from './references.ts';

type Context = Readonly<TSESLint.RuleContext<string, readonly unknown[]>>;

const DATE_METHODS = ['toLocaleDateString', 'toLocaleTimeString'];
const HOST_ZONE_METHODS = ['getTimezoneOffset', 'toDateString', 'toTimeString'];
const CASE_METHODS: Record<string, string> = {
  toLocaleUpperCase: 'toUpperCase',
  toLocaleLowerCase: 'toLowerCase',
};
const INTL_WITH_ZONE = ['DateTimeFormat'];
const INTL_LOCALE_ONLY = [
  'NumberFormat',
  'Collator',
  'PluralRules',
  'RelativeTimeFormat',
  'ListFormat',
  'DisplayNames',
  'Segmenter',
  'DurationFormat',
];
const ZONELESS_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

const both = { [CALL]: true, [CONSTRUCT]: true };
const traceMap = {
  Intl: Object.fromEntries([...INTL_WITH_ZONE, ...INTL_LOCALE_ONLY].map((n) => [n, both])),
  Date: { [CONSTRUCT]: true, parse: { [CALL]: true } },
} as unknown as TraceMap;

function isUndefined(node: TSESTree.Node): boolean {
  return (
    (node.type === AST_NODE_TYPES.Identifier && node.name === 'undefined') ||
    (node.type === AST_NODE_TYPES.UnaryExpression && node.operator === 'void')
  );
}

function hasLocale(arg: TSESTree.Node | undefined): boolean {
  if (!arg || isUndefined(arg)) return false;
  return !(arg.type === AST_NODE_TYPES.ArrayExpression && arg.elements.length === 0);
}

/** The object literal an options argument is (or is bound to), if it can be seen. */
function optionsObject(context: Context, arg: TSESTree.Node): TSESTree.ObjectExpression | null {
  if (arg.type === AST_NODE_TYPES.ObjectExpression) return arg;
  if (arg.type !== AST_NODE_TYPES.Identifier) return null;
  const variable = ASTUtils.findVariable(context.sourceCode.getScope(arg), arg);
  const def = variable?.defs[0];
  if (
    variable?.defs.length !== 1 ||
    def?.node.type !== AST_NODE_TYPES.VariableDeclarator ||
    def.node.init?.type !== AST_NODE_TYPES.ObjectExpression
  )
    return null;
  return variable.references.some((r) => r.isWrite() && !r.init) ? null : def.node.init;
}

/** Whether options carry a `timeZone`. Options the rule cannot see (a parameter, a call) are trusted. */
function hasTimeZone(context: Context, arg: TSESTree.Node | undefined): boolean {
  if (!arg || isUndefined(arg)) return false;
  const obj = optionsObject(context, arg);
  if (!obj) return arg.type !== AST_NODE_TYPES.ObjectExpression;
  return obj.properties.some(
    (p) =>
      p.type === AST_NODE_TYPES.SpreadElement ||
      (ASTUtils.getPropertyName(p) === 'timeZone' && !isUndefined(p.value)),
  );
}

/** Whether a `toLocaleString` receiver is a number (literal, or typed so when type information is available). */
function isNumeric(context: Context, receiver: TSESTree.Node): boolean {
  if (receiver.type === AST_NODE_TYPES.Literal)
    return typeof receiver.value === 'number' || typeof receiver.value === 'bigint';
  const services = typeServices(context);
  if (!services) return false;
  const checker = services.program.getTypeChecker();
  const type = checker.getBaseTypeOfLiteralType(services.getTypeAtLocation(receiver));
  return ['number', 'bigint'].includes(checker.typeToString(type));
}

export default createRule({
  name: 'no-locale-format',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow locale- and time-zone-dependent formatting (`toLocaleString()`, `Intl.*` without an explicit locale and `timeZone`) in world code',
      recommended: true,
      typeAware: true,
    },
    hasSuggestions: true,
    schema: [],
    messages: {
      missingLocale:
        "`{{name}}` without an explicit locale uses the host's default locale, so output differs between machines. Pass one, e.g. `'en-US'`.",
      missingTimeZone:
        "`{{name}}` without an explicit `timeZone` formats in the host's time zone, so output differs between machines. Pass `{ timeZone: 'UTC' }`.",
      missingLocaleAndTimeZone:
        "`{{name}}` formats with the host's locale and time zone, so output differs between machines. Pass both, e.g. `('en-US', { timeZone: 'UTC' })`.",
      hostTimeZone:
        "`{{name}}()` reads the host's time zone. Use the UTC forms instead (`getUTCHours()`, `toISOString()`, `toUTCString()`).",
      localDateParts:
        "`new Date(year, month, …)` reads its parts in the host's time zone. Use `new Date(Date.UTC(year, month, …))`.",
      zonelessDateString:
        "`{{text}}` has no time zone, so it is read in the host's time zone. Add `Z` (or an offset).",
      addLocale: 'Pass `{{args}}`.',
      useUtc: 'Use `Date.UTC(…)`.',
      appendZ: 'Read it as UTC (ISO-8601 with `Z`).',
      useLocaleFree: 'Use `{{replacement}}()`.',
    },
  },
  create(context) {
    const text = (n: TSESTree.Node) => context.sourceCode.getText(n);

    /** Report a formatter call that lacks a locale and/or a time zone, with a suggestion that adds them. */
    const checkFormatter = (
      call: TSESTree.CallExpression | TSESTree.NewExpression,
      name: string,
      localeIndex: number,
      needsZone: boolean,
    ) => {
      const args = call.arguments;
      if (args.some((a) => a.type === AST_NODE_TYPES.SpreadElement)) return;
      const locale = hasLocale(args[localeIndex]);
      const zone = !needsZone || hasTimeZone(context, args[localeIndex + 1]);
      if (locale && zone) return;
      const messageId =
        !locale && !zone
          ? 'missingLocaleAndTimeZone'
          : !locale
            ? 'missingLocale'
            : 'missingTimeZone';
      const newArgs = args.map(text);
      while (newArgs.length < localeIndex) newArgs.push('undefined');
      newArgs[localeIndex] = locale ? text(args[localeIndex]) : "'en-US'";
      if (!zone) {
        const opts = args[localeIndex + 1];
        const obj = opts && optionsObject(context, opts);
        newArgs[localeIndex + 1] =
          !opts || isUndefined(opts)
            ? "{ timeZone: 'UTC' }"
            : obj === opts && obj.properties.length === 0
              ? "{ timeZone: 'UTC' }"
              : obj === opts
                ? `{ timeZone: 'UTC', ${text(obj).slice(1).trimStart()}`
                : `{ ...${text(opts)}, timeZone: 'UTC' }`;
      }
      const head =
        call.type === AST_NODE_TYPES.NewExpression
          ? `new ${text(call.callee)}`
          : text(call.callee) + (call.optional ? '?.' : '');
      const replacement = `${head}(${newArgs.join(', ')})`;
      context.report({
        node: call,
        messageId,
        data: { name },
        suggest: [
          {
            messageId: 'addLocale',
            data: { args: newArgs.slice(localeIndex, localeIndex + 2).join(', ') },
            fix: (fixer) => fixer.replaceText(call, replacement),
          },
        ],
      });
    };

    return {
      CallExpression(call) {
        const callee =
          call.callee.type === AST_NODE_TYPES.ChainExpression
            ? call.callee.expression
            : call.callee;
        if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
        const method = ASTUtils.getPropertyName(callee);
        if (method === null) return;
        if (method === 'toLocaleString')
          checkFormatter(call, 'toLocaleString()', 0, !isNumeric(context, callee.object));
        else if (DATE_METHODS.includes(method)) checkFormatter(call, `${method}()`, 0, true);
        else if (method === 'localeCompare') checkFormatter(call, 'localeCompare()', 1, false);
        else if (HOST_ZONE_METHODS.includes(method) && call.arguments.length === 0)
          context.report({ node: call, messageId: 'hostTimeZone', data: { name: method } });
        else if (method in CASE_METHODS && !hasLocale(call.arguments[0])) {
          const replacement = CASE_METHODS[method];
          context.report({
            node: call,
            messageId: 'missingLocale',
            data: { name: `${method}()` },
            suggest: [
              {
                messageId: 'useLocaleFree',
                data: { replacement },
                fix: (fixer) =>
                  fixer.replaceText(
                    call,
                    `${text(callee.object)}${callee.optional ? '?.' : '.'}${replacement}()`,
                  ),
              },
            ],
          });
        }
      },
      'Program:exit'() {
        for (const ref of globalReferences(context, traceMap)) {
          const call = ref.node as TSESTree.CallExpression | TSESTree.NewExpression;
          const [root, member] = ref.path;
          if (root === 'Intl' && member) {
            checkFormatter(call, `Intl.${member}`, 0, INTL_WITH_ZONE.includes(member));
          } else if (
            root === 'Date' &&
            ref.kind === 'construct' &&
            call.arguments.length >= 2 &&
            !call.arguments.some((a) => a.type === AST_NODE_TYPES.SpreadElement)
          ) {
            const parts = call.arguments.map(text).join(', ');
            context.report({
              node: call,
              messageId: 'localDateParts',
              suggest: [
                {
                  messageId: 'useUtc',
                  fix: (fixer) =>
                    fixer.replaceText(call, `new ${text(call.callee)}(Date.UTC(${parts}))`),
                },
              ],
            });
          } else if ((root === 'Date' && ref.kind === 'construct') || member === 'parse') {
            const arg = call.arguments[0];
            if (
              call.arguments.length !== 1 ||
              arg.type !== AST_NODE_TYPES.Literal ||
              typeof arg.value !== 'string' ||
              !ZONELESS_DATE_TIME.test(arg.value)
            )
              continue;
            const fixed = JSON.stringify(arg.value.replace(' ', 'T') + 'Z').replace(
              /^"|"$/g,
              arg.raw[0],
            );
            context.report({
              node: arg,
              messageId: 'zonelessDateString',
              data: { text: arg.raw },
              suggest: [{ messageId: 'appendZ', fix: (fixer) => fixer.replaceText(arg, fixed) }],
            });
          }
        }
      },
    };
  },
});
