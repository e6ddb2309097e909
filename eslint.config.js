// Lint, including the layering rules of docs/architecture.md: app/ is pure (no electron, react, node:* or
// main/), renderer/ never reaches into main/ or Node, only main/electron/ may import electron, and the
// capability folders of app/, main/services/ and renderer/src/features/ import one another one way only
// (scripts/lint/capability-cycles.ts).

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import benchlab from './scripts/lint/capability-cycles.ts';

const nodeBuiltins = [...builtinModules.filter((name) => !name.startsWith('_')), 'node:*'];

const restrict = (groups) => ['error', { patterns: groups }];

const noNode = { group: nodeBuiltins, message: 'This layer runs without Node: no Node built-ins here.' };
const noElectron = { group: ['electron', 'electron/*'], message: 'Only main/electron/ may import electron.' };
const noMain = { group: ['**/main/**', '**/main'], message: 'Reach the back end through the contract (window.benchlab), not main/.' };

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    // No import cycle between capability folders: each capability can be read and changed from the bottom up.
    files: ['app/**/*.ts', 'main/services/**/*.ts', 'renderer/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { benchlab },
    rules: { 'benchlab/no-capability-cycles': 'error' },
  },
  {
    // Scripts a JVM template's script engine loads: their top-level functions are called from Java.
    files: ['server-templates/*/src/main/js/**/*.js'],
    rules: { '@typescript-eslint/no-unused-vars': 'off' },
  },
  {
    // The Node 0.8 template: ES5 in CommonJS, with Node's globals (0.8 has no node: modules to import).
    files: ['server-templates/node-0-8/**/*.js'],
    languageOptions: {
      ecmaVersion: 5,
      sourceType: 'commonjs',
      globals: { require: 'readonly', process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-var': 'off' },
  },
  {
    files: ['app/**/*.ts'],
    ignores: ['app/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        noNode,
        noElectron,
        noMain,
        { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'app/ is pure: no UI libraries.' },
        { group: ['**/renderer/**', '**/agent/**'], message: 'app/ imports only app/.' },
        { group: ['better-sqlite3', 'ws', 'ssh2', 'node-ssh'], message: 'app/ is pure: no I/O libraries.' },
      ]),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([noNode, noElectron, noMain]),
    },
  },
  {
    // A renderer feature never imports another feature's page (renderer/src/features/<x>/*Page.tsx):
    // a page is imported from its own folder ('./HostsPage.tsx') and by App.tsx, which routes to it;
    // what two features share goes into a component. This block repeats the renderer's rules above,
    // since a later block's no-restricted-imports replaces an earlier one's.
    files: ['renderer/**/*.{ts,tsx}'],
    ignores: ['renderer/src/App.tsx'],
    rules: {
      'no-restricted-imports': restrict([
        noNode,
        noElectron,
        noMain,
        {
          // Any path to a module named <Name>Page other than './<Name>Page' (common/Page.tsx, the frame, is no page).
          regex: '^(?!\\./[^/]+$).*/[A-Z][A-Za-z0-9]*Page(\\.[jt]sx?)?$',
          caseSensitive: true,
          message: "Another feature's page is not a component: import pages only from their own feature folder (and App.tsx); move what is shared into a component.",
        },
      ]),
    },
  },
  {
    files: ['main/**/*.ts', 'agent/**/*.ts', 'scripts/**/*.ts', 'tests/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: {
      'no-restricted-imports': restrict([noElectron]),
    },
  },
  {
    // Services are the back end's own work, hosted by the front doors: they never reach back into
    // the request handlers or a front door (main/api, main/web, main/electron, main/cli). Tests that
    // drive a service through the dispatcher, as a front door does, are exempt.
    files: ['main/services/**/*.ts'],
    ignores: ['main/services/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        noElectron,
        // Relative imports name no "main/" ('../../api/handlers.ts'): match the folder wherever it sits.
        { group: ['**/api/**', '**/web/**', '**/electron/**', '**/cli/**'], message: 'Services never import main/api, main/web, main/electron or main/cli: those call the services.' },
      ]),
    },
  },
  {
    // The CLI is a front door: it reaches the back end through the contract (main/api's dispatcher, as
    // `benchlab call` does) or the Services facade, main/services/services.ts, and no other module of
    // main/services (docs/architecture.md, "The CLI"). Its tests may seed a store directly.
    files: ['main/cli/**/*.ts'],
    ignores: ['main/cli/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        noElectron,
        {
          group: ['**/services/**', '!**/services/services.ts'],
          message: 'The CLI uses main/services only through services.ts (the Services object and the entry points it names), or the contract.',
        },
        { group: ['**/api/**', '!**/api/dispatch.ts', '!**/api/handlers.ts'], message: "The CLI reaches main/api only through the contract's dispatcher and handlers." },
      ]),
    },
  },
  {
    // The agent is bundled and run on remote hosts: app/ (its protocol), hdr-histogram-js and Node
    // built-ins only (its HTTP client is its own).
    files: ['agent/**/*.ts'],
    ignores: ['agent/**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        noElectron,
        noMain,
        { group: ['**/renderer/**', '**/scripts/**', '**/tests/**'], message: 'The agent bundle holds agent/ and app/ only.' },
        { group: ['react', 'react-dom', 'better-sqlite3', 'ws', 'ssh2', 'chart.js', '@xterm/*', 'zod', 'autocannon', 'autocannon/*'], message: 'Not in the agent bundle: only hdr-histogram-js (zod comes through app/).' },
      ]),
    },
  },
);
