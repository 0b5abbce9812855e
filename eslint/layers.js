// The layers of the app and what each may import: an allow-list (VS Code's code-layering), so the
// next mistake is refused by default instead of waiting for someone to add it to a block-list.
// A layer's files are matched by path prefix from the repository's root, the first layer that
// matches wins; files in no layer (test/, scripts/, build and tool config) are not checked.
// test/unit/lint/layers.test.ts shows each layer refusing what it may not import.
import { builtinModules } from 'node:module';
import { dirname, relative, resolve } from 'node:path';

const NODE = new Set(builtinModules.filter((name) => !name.startsWith('_')));

/**
 * `files`: path prefixes of the layer. `mayImport`: path prefixes (folders end with '/') its relative
 * imports may reach. `packages`: npm packages it may import (a trailing '/*' allows a whole scope).
 * `node`: whether Node's builtins are allowed. `why`: said with every refusal.
 */
export const LAYERS = [
  {
    name: 'electron/core',
    files: ['electron/core/'],
    mayImport: ['electron/core/', 'shared/'],
    node: true,
    packages: [
      'zod',
      'undici',
      'libphonenumber-js',
      'mime-types',
      'sharp',
      '@napi-rs/keyring',
      '@ngrok/ngrok',
      'cloudflared',
      '@nats-io/*',
    ],
    why: 'the core is host-agnostic: it never imports a host, Electron, a web server, the sandbox, the renderer or tests',
  },
  {
    name: 'the desktop hosts',
    files: ['electron/hosts/', 'electron/main.ts', 'electron/preload.ts', 'electron/browser-host.ts'],
    mayImport: [
      'electron/hosts/',
      'electron/browser-host.ts',
      'electron/core/index.ts',
      // The core's logger, a leaf: the browser host logs before it loads the core, so it listens first.
      'electron/core/log/logger.ts',
      'shared/',
      'sandbox/index.ts',
    ],
    node: true,
    packages: ['electron', 'electron-store', 'fastify', '@fastify/*', 'ws', 'zod', 'mime-types', 'sharp'],
    why: 'a desktop host reaches the core only through its entry point, electron/core/index.ts (and its logger)',
  },
  {
    name: 'the relay host',
    files: ['electron/relay/'],
    mayImport: [
      'electron/relay/',
      'electron/core/relay-host.ts',
      // `npm run relay` with no service named runs the demo organization, as `npm start` does.
      'electron/hosts/demo-sandbox.ts',
      'electron/core/log/logger.ts',
      'shared/',
      'sandbox/index.ts',
    ],
    node: true,
    packages: ['zod', '@nats-io/*', '@peculiar/x509', 'reflect-metadata'],
    why: 'the relay host reaches the core only through its own door, electron/core/relay-host.ts (and its logger)',
  },
  {
    name: 'the renderer',
    files: ['renderer/'],
    mayImport: ['renderer/', 'shared/'],
    node: false,
    packages: [
      'react',
      'react-dom',
      'zustand',
      'lucide-react',
      'react-virtuoso',
      'fuzzysort',
      'sms-segments-calculator',
    ],
    why: 'the renderer is sandboxed: no Node, no Electron, no main-process code; it reaches the core through the bridge',
  },
  {
    name: 'shared',
    files: ['shared/'],
    mayImport: ['shared/'],
    node: false,
    packages: ['zod', 'libphonenumber-js'],
    why: 'shared/ is imported by both sides, so it imports neither side’s code',
  },
  {
    name: 'the sandbox',
    files: ['sandbox/'],
    mayImport: ['sandbox/'],
    node: true,
    packages: [
      'fastify',
      '@fastify/*',
      'zod',
      'undici',
      'standardwebhooks',
      'mime-types',
      'libphonenumber-js',
      'canonicalize',
    ],
    why: 'the sandbox stands in for the remote service: it shares no code with the app',
  },
];

/**
 * Inside electron/core, what each folder (or root file) may import of the others: an allow-list
 * again, lowest first. The store and the API clients know nothing of what uses them; the sync
 * engine and the outbox sit on both; a session composes them; live events, the relay link and the
 * team layer sit on a session; workspaces, the app and the doors see everything they wire.
 */
const CORE_BASE = ['log/', 'util.ts'];
export const CORE_INSIDE = {
  'log/': [],
  'util.ts': [],
  'vault/': ['log/'],
  'settings/': ['log/'],
  'attachments/': ['log/'],
  'store/': CORE_BASE,
  // the adapters map the wire into the store's records (store/records.ts)
  'api/': [...CORE_BASE, 'store/'],
  'sync/': [...CORE_BASE, 'store/', 'api/'],
  'outbox/': [...CORE_BASE, 'store/', 'api/', 'sync/'],
  'workbench/': [...CORE_BASE, 'store/', 'outbox/', 'session.ts'],
  'session.ts': [...CORE_BASE, 'store/', 'api/', 'sync/', 'outbox/', 'workbench/'],
  'realtime/': [...CORE_BASE, 'vault/', 'store/', 'api/', 'sync/', 'session.ts'],
  'relay/': [...CORE_BASE, 'store/', 'api/', 'sync/', 'outbox/', 'realtime/', 'session.ts'],
  'team/': [...CORE_BASE, 'store/', 'api/', 'sync/', 'outbox/', 'realtime/', 'relay/', 'session.ts'],
  'workspaces/': [...CORE_BASE, 'vault/', 'settings/', 'api/', 'relay/'],
  'app/': ['*'],
  'index.ts': ['*'],
  'relay-host.ts': ['*'],
};

/** The core's folder (`store/`) or root file (`util.ts`) a path inside electron/core belongs to. */
function coreUnit(path) {
  const inside = path.slice('electron/core/'.length);
  const slash = inside.indexOf('/');
  return slash === -1 ? inside : inside.slice(0, slash + 1);
}

/**
 * Narrower rules inside a layer: only the files under `from` may import `target`. The renderer's
 * features and components reach the core only through renderer/actions/ (renderer/README.md).
 */
export const GATES = [
  {
    target: 'renderer/bridge/',
    from: ['renderer/bridge/', 'renderer/actions/', 'renderer/main.tsx'],
    why: "the renderer's views reach the core only through renderer/actions/",
  },
];

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function packageAllowed(name, allowed) {
  return allowed.some((entry) =>
    entry.endsWith('/*') ? name.startsWith(entry.slice(0, -1)) : name === entry,
  );
}

/** The ESLint rule: `parley/layers`. The root is where eslint.config.js lives. */
export function layersRule(root) {
  return {
    meta: {
      type: 'problem',
      messages: {
        refused: '{{layer}} may not import "{{specifier}}": {{why}}.',
        gated: '"{{specifier}}" may be imported only from {{from}}: {{why}}.',
        inside:
          'electron/core/{{unit}} may not import electron/core/{{target}}: inside the core, {{unit}} may import only {{allowed}} (eslint/layers.js CORE_INSIDE).',
      },
    },
    create(context) {
      const file = relative(root, context.filename).split('\\').join('/');
      const layer = LAYERS.find((l) => l.files.some((prefix) => file.startsWith(prefix)));
      if (!layer) return {};
      const check = (node, specifier) => {
        if (typeof specifier !== 'string') return;
        const report = (messageId, data) => context.report({ node, messageId, data: { specifier, ...data } });
        if (specifier.startsWith('.')) {
          const target = relative(root, resolve(dirname(context.filename), specifier))
            .split('\\')
            .join('/');
          if (!layer.mayImport.some((prefix) => target === prefix || target.startsWith(prefix))) {
            report('refused', { layer: layer.name, why: layer.why });
            return;
          }
          if (file.startsWith('electron/core/') && target.startsWith('electron/core/')) {
            const unit = coreUnit(file);
            const targetUnit = coreUnit(target);
            const allowed = CORE_INSIDE[unit];
            if (!allowed) {
              report('inside', { unit, target: targetUnit, allowed: 'nothing (add it to CORE_INSIDE)' });
              return;
            }
            if (unit !== targetUnit && !allowed.includes('*') && !allowed.includes(targetUnit)) {
              report('inside', { unit, target: targetUnit, allowed: allowed.join(', ') || 'nothing' });
              return;
            }
          }
          for (const gate of GATES) {
            if (target.startsWith(gate.target) && !gate.from.some((prefix) => file.startsWith(prefix))) {
              report('gated', { from: gate.from.join(', '), why: gate.why });
            }
          }
          return;
        }
        const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
        if (specifier.startsWith('node:') || NODE.has(bare) || NODE.has(bare.split('/')[0])) {
          if (!layer.node) report('refused', { layer: layer.name, why: layer.why });
          return;
        }
        if (!packageAllowed(packageName(specifier), layer.packages)) {
          report('refused', {
            layer: layer.name,
            why: `${layer.why} (its packages: ${layer.packages.join(', ')})`,
          });
        }
      };
      return {
        ImportDeclaration: (node) => check(node, node.source.value),
        ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
        ExportAllDeclaration: (node) => check(node, node.source.value),
        ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
      };
    },
  };
}
