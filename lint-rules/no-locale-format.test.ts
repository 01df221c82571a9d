import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';
import rule from './no-locale-format.ts';

Object.assign(RuleTester, { afterAll, describe, it, itOnly: it.only });
const ruleTester = new RuleTester();

ruleTester.run('no-locale-format', rule, {
  valid: [
    'd.toLocaleString("en-US", { timeZone: "UTC" });',
    'd.toLocaleDateString("de-DE", { timeZone: "Europe/Berlin", month: "long" });',
    'new Intl.DateTimeFormat("en-US", { timeZone: "UTC", dateStyle: "short" }).format(d);',
    'Intl.NumberFormat("en-US").format(1234.5);',
    'new Intl.Collator("en").compare(a, b);',
    'const opts = { timeZone: "UTC" }; d.toLocaleTimeString("en-GB", opts);',
    'const opts = { ...base, hour: "2-digit" }; d.toLocaleTimeString("en-GB", opts);',
    // Options the rule cannot see are trusted.
    'function fmt(d, options) { return d.toLocaleString("en-US", options); }',
    // Numbers need a locale, not a time zone.
    '(1234).toLocaleString("en-US");',
    'a.localeCompare(b, "en");',
    's.toLocaleUpperCase("tr");',
    'new Date(Date.UTC(2026, 0, 1)); new Date(1767225600000); new Date("2026-01-01T00:00:00Z"); Date.parse("2026-01-01");',
    'd.getUTCHours(); d.toISOString(); d.toUTCString();',
    // A shadowed Intl is not the global.
    'const Intl = { DateTimeFormat: class {} }; new Intl.DateTimeFormat();',
  ],
  invalid: [
    {
      code: 'const s = d.toLocaleString();',
      errors: [{ messageId: 'missingLocaleAndTimeZone', data: { name: 'toLocaleString()' }, suggestions: [{ messageId: 'addLocale', output: "const s = d.toLocaleString('en-US', { timeZone: 'UTC' });" }] }],
    },
    {
      code: 'd.toLocaleDateString("en-US");',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `d.toLocaleDateString("en-US", { timeZone: 'UTC' });` }] }],
    },
    {
      code: 'd.toLocaleTimeString(undefined, { hour: "2-digit" });',
      errors: [{ messageId: 'missingLocaleAndTimeZone', suggestions: [{ messageId: 'addLocale', output: `d.toLocaleTimeString('en-US', { timeZone: 'UTC', hour: "2-digit" });` }] }],
    },
    {
      code: 'd.toLocaleString("en-US", {});',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `d.toLocaleString("en-US", { timeZone: 'UTC' });` }] }],
    },
    {
      code: 'd.toLocaleString([], { timeZone: "UTC" });',
      errors: [{ messageId: 'missingLocale', suggestions: [{ messageId: 'addLocale', output: `d.toLocaleString('en-US', { timeZone: "UTC" });` }] }],
    },
    {
      code: 'const o = { month: "long" }; d.toLocaleDateString("en-US", o);',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `const o = { month: "long" }; d.toLocaleDateString("en-US", { ...o, timeZone: 'UTC' });` }] }],
    },
    {
      code: 'new Intl.DateTimeFormat().format(d);',
      errors: [{ messageId: 'missingLocaleAndTimeZone', data: { name: 'Intl.DateTimeFormat' }, suggestions: [{ messageId: 'addLocale', output: `new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).format(d);` }] }],
    },
    {
      code: 'const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;',
      errors: [{ messageId: 'missingLocaleAndTimeZone', suggestions: [{ messageId: 'addLocale', output: `const tz = Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions().timeZone;` }] }],
    },
    {
      code: 'new Intl.DateTimeFormat("en-US", { dateStyle: "short" });',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `new Intl.DateTimeFormat("en-US", { timeZone: 'UTC', dateStyle: "short" });` }] }],
    },
    {
      code: 'new Intl.NumberFormat().format(n);',
      errors: [{ messageId: 'missingLocale', data: { name: 'Intl.NumberFormat' }, suggestions: [{ messageId: 'addLocale', output: `new Intl.NumberFormat('en-US').format(n);` }] }],
    },
    {
      code: 'const { DateTimeFormat } = Intl; new DateTimeFormat("en");',
      errors: [{ messageId: 'missingTimeZone', suggestions: [{ messageId: 'addLocale', output: `const { DateTimeFormat } = Intl; new DateTimeFormat("en", { timeZone: 'UTC' });` }] }],
    },
    {
      code: 'globalThis.Intl.Collator().compare(a, b);',
      errors: [{ messageId: 'missingLocale', suggestions: [{ messageId: 'addLocale', output: `globalThis.Intl.Collator('en-US').compare(a, b);` }] }],
    },
    {
      code: '(1234).toLocaleString();',
      errors: [{ messageId: 'missingLocale', suggestions: [{ messageId: 'addLocale', output: `(1234).toLocaleString('en-US');` }] }],
    },
    {
      code: 'names.sort((a, b) => a.localeCompare(b));',
      errors: [{ messageId: 'missingLocale', data: { name: 'localeCompare()' }, suggestions: [{ messageId: 'addLocale', output: `names.sort((a, b) => a.localeCompare(b, 'en-US'));` }] }],
    },
    {
      code: 'const up = name.toLocaleUpperCase();',
      errors: [{ messageId: 'missingLocale', suggestions: [{ messageId: 'useLocaleFree', data: { replacement: 'toUpperCase' }, output: 'const up = name.toUpperCase();' }] }],
    },
    { code: 'const off = d.getTimezoneOffset();', errors: [{ messageId: 'hostTimeZone', data: { name: 'getTimezoneOffset' } }] },
    { code: 'd.toDateString(); d.toTimeString();', errors: [{ messageId: 'hostTimeZone' }, { messageId: 'hostTimeZone' }] },
    {
      code: 'const start = new Date(2026, 0, 1);',
      errors: [{ messageId: 'localDateParts', suggestions: [{ messageId: 'useUtc', output: 'const start = new Date(Date.UTC(2026, 0, 1));' }] }],
    },
    {
      code: 'const t = new Date("2026-06-01T09:00:00");',
      errors: [{ messageId: 'zonelessDateString', suggestions: [{ messageId: 'appendZ', output: 'const t = new Date("2026-06-01T09:00:00Z");' }] }],
    },
    {
      code: "const ms = Date.parse('2026-06-01 09:00');",
      errors: [{ messageId: 'zonelessDateString', suggestions: [{ messageId: 'appendZ', output: "const ms = Date.parse('2026-06-01T09:00Z');" }] }],
    },
  ],
});
