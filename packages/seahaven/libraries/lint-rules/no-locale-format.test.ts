import rule from './no-locale-format.ts';
import { testMessages, testRule } from './test-helpers.ts';

testMessages(rule, {
  missingLocale: [
    "`toLocaleString()` without an explicit locale uses the host's default locale, so output differs between machines. Pass one, e.g. `'en-US'`.",
    { name: 'toLocaleString()' },
  ],
  missingTimeZone: [
    "`toLocaleDateString()` without an explicit `timeZone` formats in the host's time zone, so output differs between machines. Pass `{ timeZone: 'UTC' }`.",
    { name: 'toLocaleDateString()' },
  ],
  missingLocaleAndTimeZone: [
    "`toLocaleString()` formats with the host's locale and time zone, so output differs between machines. Pass both, e.g. `('en-US', { timeZone: 'UTC' })`.",
    { name: 'toLocaleString()' },
  ],
  hostTimeZone: [
    "`getTimezoneOffset()` reads the host's time zone. Use the UTC forms instead (`getUTCHours()`, `toISOString()`, `toUTCString()`).",
    { name: 'getTimezoneOffset' },
  ],
  localDateParts: [
    "`new Date(year, month, …)` reads its parts in the host's time zone. Use `new Date(Date.UTC(year, month, …))`.",
  ],
  zonelessDateString: [
    '`"2026-06-01T09:00:00"` has no time zone, so it is read in the host\'s time zone. Add `Z` (or an offset).',
    { text: '"2026-06-01T09:00:00"' },
  ],
  addLocale: ["Pass `'en-US', { timeZone: 'UTC' }`.", { args: "'en-US', { timeZone: 'UTC' }" }],
  useUtc: ['Use `Date.UTC(…)`.'],
  appendZ: ['Read it as UTC (ISO-8601 with `Z`).'],
  useLocaleFree: ['Use `toUpperCase()`.', { replacement: 'toUpperCase' }],
});

testRule('no-locale-format', rule, {
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
      errors: [
        {
          messageId: 'missingLocaleAndTimeZone',
          data: { name: 'toLocaleString()' },
          column: 11,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US', { timeZone: 'UTC' }" },
              output: "const s = d.toLocaleString('en-US', { timeZone: 'UTC' });",
            },
          ],
        },
      ],
    },
    {
      code: 'd.toLocaleDateString("en-US");',
      errors: [
        {
          messageId: 'missingTimeZone',
          data: { name: 'toLocaleDateString()' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `"en-US", { timeZone: 'UTC' }` },
              output: `d.toLocaleDateString("en-US", { timeZone: 'UTC' });`,
            },
          ],
        },
      ],
    },
    {
      code: 'd.toLocaleTimeString(undefined, { hour: "2-digit" });',
      errors: [
        {
          messageId: 'missingLocaleAndTimeZone',
          data: { name: 'toLocaleTimeString()' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `'en-US', { timeZone: 'UTC', hour: "2-digit" }` },
              output: `d.toLocaleTimeString('en-US', { timeZone: 'UTC', hour: "2-digit" });`,
            },
          ],
        },
      ],
    },
    {
      code: 'd.toLocaleString("en-US", {});',
      errors: [
        {
          messageId: 'missingTimeZone',
          data: { name: 'toLocaleString()' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `"en-US", { timeZone: 'UTC' }` },
              output: `d.toLocaleString("en-US", { timeZone: 'UTC' });`,
            },
          ],
        },
      ],
    },
    {
      code: 'd.toLocaleString([], { timeZone: "UTC" });',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'toLocaleString()' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `'en-US', { timeZone: "UTC" }` },
              output: `d.toLocaleString('en-US', { timeZone: "UTC" });`,
            },
          ],
        },
      ],
    },
    {
      code: 'const o = { month: "long" }; d.toLocaleDateString("en-US", o);',
      errors: [
        {
          messageId: 'missingTimeZone',
          data: { name: 'toLocaleDateString()' },
          column: 30,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `"en-US", { ...o, timeZone: 'UTC' }` },
              output: `const o = { month: "long" }; d.toLocaleDateString("en-US", { ...o, timeZone: 'UTC' });`,
            },
          ],
        },
      ],
    },
    {
      code: 'new Intl.DateTimeFormat().format(d);',
      errors: [
        {
          messageId: 'missingLocaleAndTimeZone',
          data: { name: 'Intl.DateTimeFormat' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US', { timeZone: 'UTC' }" },
              output: `new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).format(d);`,
            },
          ],
        },
      ],
    },
    {
      code: 'const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;',
      errors: [
        {
          messageId: 'missingLocaleAndTimeZone',
          data: { name: 'Intl.DateTimeFormat' },
          column: 12,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US', { timeZone: 'UTC' }" },
              output: `const tz = Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions().timeZone;`,
            },
          ],
        },
      ],
    },
    {
      code: 'new Intl.DateTimeFormat("en-US", { dateStyle: "short" });',
      errors: [
        {
          messageId: 'missingTimeZone',
          data: { name: 'Intl.DateTimeFormat' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `"en-US", { timeZone: 'UTC', dateStyle: "short" }` },
              output: `new Intl.DateTimeFormat("en-US", { timeZone: 'UTC', dateStyle: "short" });`,
            },
          ],
        },
      ],
    },
    {
      code: 'new Intl.NumberFormat().format(n);',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'Intl.NumberFormat' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US'" },
              output: `new Intl.NumberFormat('en-US').format(n);`,
            },
          ],
        },
      ],
    },
    {
      code: 'const { DateTimeFormat } = Intl; new DateTimeFormat("en");',
      errors: [
        {
          messageId: 'missingTimeZone',
          data: { name: 'Intl.DateTimeFormat' },
          column: 34,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: `"en", { timeZone: 'UTC' }` },
              output: `const { DateTimeFormat } = Intl; new DateTimeFormat("en", { timeZone: 'UTC' });`,
            },
          ],
        },
      ],
    },
    {
      code: 'globalThis.Intl.Collator().compare(a, b);',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'Intl.Collator' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US'" },
              output: `globalThis.Intl.Collator('en-US').compare(a, b);`,
            },
          ],
        },
      ],
    },
    {
      code: '(1234).toLocaleString();',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'toLocaleString()' },
          column: 1,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US'" },
              output: `(1234).toLocaleString('en-US');`,
            },
          ],
        },
      ],
    },
    {
      code: 'names.sort((a, b) => a.localeCompare(b));',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'localeCompare()' },
          column: 22,
          suggestions: [
            {
              messageId: 'addLocale',
              data: { args: "'en-US'" },
              output: `names.sort((a, b) => a.localeCompare(b, 'en-US'));`,
            },
          ],
        },
      ],
    },
    {
      code: 'const up = name.toLocaleUpperCase();',
      errors: [
        {
          messageId: 'missingLocale',
          data: { name: 'toLocaleUpperCase()' },
          column: 12,
          suggestions: [
            {
              messageId: 'useLocaleFree',
              data: { replacement: 'toUpperCase' },
              output: 'const up = name.toUpperCase();',
            },
          ],
        },
      ],
    },
    {
      code: 'const off = d.getTimezoneOffset();',
      errors: [{ messageId: 'hostTimeZone', data: { name: 'getTimezoneOffset' }, column: 13 }],
    },
    {
      code: 'd.toDateString(); d.toTimeString();',
      errors: [
        { messageId: 'hostTimeZone', data: { name: 'toDateString' }, column: 1 },
        { messageId: 'hostTimeZone', data: { name: 'toTimeString' }, column: 19 },
      ],
    },
    {
      code: 'const start = new Date(2026, 0, 1);',
      errors: [
        {
          messageId: 'localDateParts',
          column: 15,
          suggestions: [
            { messageId: 'useUtc', output: 'const start = new Date(Date.UTC(2026, 0, 1));' },
          ],
        },
      ],
    },
    {
      code: 'const t = new Date("2026-06-01T09:00:00");',
      errors: [
        {
          messageId: 'zonelessDateString',
          data: { text: '"2026-06-01T09:00:00"' },
          column: 20,
          suggestions: [
            { messageId: 'appendZ', output: 'const t = new Date("2026-06-01T09:00:00Z");' },
          ],
        },
      ],
    },
    {
      code: "const ms = Date.parse('2026-06-01 09:00');",
      errors: [
        {
          messageId: 'zonelessDateString',
          data: { text: "'2026-06-01 09:00'" },
          column: 23,
          suggestions: [
            { messageId: 'appendZ', output: "const ms = Date.parse('2026-06-01T09:00Z');" },
          ],
        },
      ],
    },
  ],
});
