import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  decideProvisioning,
  findMissing,
  SYSTEM_REQUIREMENTS,
  type MachineFacts,
  type SystemRequirement,
} from '../../../scripts/lib/provision.ts';

const requirement = (pkg: string): SystemRequirement => {
  const found = SYSTEM_REQUIREMENTS.find((r) => r.pkg === pkg);
  if (found === undefined) throw new Error(`no requirement ${pkg}`);
  return found;
};

const debianRoot: MachineFacts = { platform: 'linux', hasApt: true, rights: 'root', installRefused: false };

describe('decideProvisioning: what is missing → what is installed or said', () => {
  it('does nothing when nothing is missing', () => {
    expect(decideProvisioning([], debianRoot)).toEqual({ kind: 'ready' });
  });

  it('installs what is missing as root, naming each package and why in one line', () => {
    const decision = decideProvisioning([requirement('chromium'), requirement('nats-server')], debianRoot);
    expect(decision).toEqual({
      kind: 'install',
      announcement:
        'npm test: installing chromium (the end-to-end tests drive the app in Chromium), nats-server ' +
        "(the team relay's tests run against a real NATS server) with apt",
      elevate: [],
      packages: ['chromium', 'nats-server'],
    });
  });

  it('installs through sudo -n when the user may sudo without a password', () => {
    const decision = decideProvisioning([requirement('gnome-keyring')], { ...debianRoot, rights: 'sudo' });
    expect(decision).toMatchObject({ kind: 'install', elevate: ['sudo', '-n'], packages: ['gnome-keyring'] });
  });

  it('stops at once with the one command to run when it may not install', () => {
    const decision = decideProvisioning([requirement('dbus'), requirement('gnome-keyring')], {
      ...debianRoot,
      rights: 'none',
    });
    expect(decision.kind).toBe('stop');
    const message = (decision as { message: string }).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('installing needs root or passwordless sudo');
    expect(message).toMatch(/run: sudo apt-get install -y --no-install-recommends dbus gnome-keyring$/);
  });

  it('says the command instead of installing when PARLEY_NO_INSTALL asked it to', () => {
    const decision = decideProvisioning([requirement('chromium')], { ...debianRoot, installRefused: true });
    expect(decision).toMatchObject({ kind: 'stop' });
    expect((decision as { message: string }).message).toContain('PARLEY_NO_INSTALL is set');
  });

  it('names the packages and stops where there is no apt-get', () => {
    for (const machine of [
      { ...debianRoot, hasApt: false },
      { ...debianRoot, platform: 'darwin' as const },
    ]) {
      const decision = decideProvisioning([requirement('nats-server')], machine);
      expect(decision.kind).toBe('stop');
      expect((decision as { message: string }).message).toContain('nats-server');
      expect((decision as { message: string }).message).toContain('no apt-get');
    }
  });
});

describe('findMissing: judged by the commands and files a package provides', () => {
  let bin: string;
  beforeEach(() => {
    bin = mkdtempSync(join(tmpdir(), 'parley-provision-'));
  });
  afterEach(() => {
    rmSync(bin, { recursive: true, force: true });
  });
  const executable = (name: string, mode = 0o755): void => {
    writeFileSync(join(bin, name), '#!/bin/sh\n');
    chmodSync(join(bin, name), mode);
  };

  it('finds a package missing when any of its commands is not on PATH', () => {
    executable('dbus-run-session'); // dbus-send is not there
    executable('nats-server');
    const missing = findMissing([requirement('dbus'), requirement('nats-server')], bin, () => true);
    expect(missing.map((r) => r.pkg)).toEqual(['dbus']);
  });

  it('does not count a file that is not executable as a command', () => {
    executable('nats-server', 0o644);
    expect(findMissing([requirement('nats-server')], bin, () => true).map((r) => r.pkg)).toEqual([
      'nats-server',
    ]);
  });

  it('finds a package missing when none of its files exists', () => {
    const missing = findMissing(
      [requirement('chromium'), requirement('fonts-noto-color-emoji')],
      bin,
      (file) => file.endsWith('NotoColorEmoji.ttf'),
    );
    expect(missing.map((r) => r.pkg)).toEqual(['chromium']);
  });

  it("lists every package the test phases need, including the relay tests' server", () => {
    expect(SYSTEM_REQUIREMENTS.map((r) => r.pkg)).toEqual([
      'chromium',
      'dbus',
      'gnome-keyring',
      'libsecret-tools',
      'fonts-noto-color-emoji',
      'nats-server',
    ]);
  });
});
