import { describe, expect, it } from 'vitest';
import {
  BOOT_BUDGET_BYTES,
  bootBytes,
  bootKeys,
  chunkSizes,
  chunkTable,
  type Manifest,
} from '../../perf/boot-budget.ts';

// The shape Vite writes to .vite/manifest.json: an entry with static and dynamic imports, a shared
// chunk imported by both the entry and a lazy view, and a lazy view importing a chunk of its own.
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    name: 'index',
    isEntry: true,
    imports: ['_phone-b.js'],
    dynamicImports: ['features/settings/SettingsView.tsx'],
  },
  '_phone-b.js': { file: 'assets/phone-b.js', name: 'phone' },
  'features/settings/SettingsView.tsx': {
    file: 'assets/SettingsView-c.js',
    name: 'SettingsView',
    isDynamicEntry: true,
    imports: ['_phone-b.js', '_Modal-d.js'],
  },
  '_Modal-d.js': { file: 'assets/Modal-d.js', name: 'Modal' },
  'index.css': { file: 'assets/index-e.css' },
};
const sizes: Record<string, number> = {
  'assets/index-a.js': 400,
  'assets/phone-b.js': 250,
  'assets/SettingsView-c.js': 13,
  'assets/Modal-d.js': 2,
};

describe('the renderer boot path', () => {
  it('is the entry and what it imports statically, not what a lazy view pulls in', () => {
    expect([...bootKeys(manifest)].sort()).toEqual(['_phone-b.js', 'index.html']);
  });

  it('adds up the boot chunks only, listing them first', () => {
    const chunks = chunkSizes(manifest, (file) => sizes[file] ?? Number.NaN);
    expect(chunks.map((c) => [c.name, c.boot])).toEqual([
      ['index', true],
      ['phone', true],
      ['SettingsView', false],
      ['Modal', false],
    ]);
    expect(bootBytes(chunks)).toBe(650);
  });

  it('prints one line per chunk, boot path marked first, then the total against the budget', () => {
    const lines = chunkTable(chunkSizes(manifest, (file) => sizes[file] ?? Number.NaN)).split('\n');
    expect(lines.slice(0, 4).map((line) => line.split(/\s+/).filter(Boolean).slice(0, 4))).toEqual([
      ['boot', '0.4', 'kB', 'index'],
      ['boot', '0.3', 'kB', 'phone'],
      ['0.0', 'kB', 'SettingsView', '(assets/SettingsView-c.js)'],
      ['0.0', 'kB', 'Modal', '(assets/Modal-d.js)'],
    ]);
    expect(lines[4]).toBe(
      `boot path 0.7 kB of a ${BOOT_BUDGET_BYTES / 1000} kB budget (issue #12 target 250 kB)`,
    );
  });

  it('refuses a manifest that names a chunk it does not describe', () => {
    const broken: Manifest = {
      'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_gone.js'] },
    };
    expect(() => bootKeys(broken)).toThrow(/_gone\.js/);
  });
});
