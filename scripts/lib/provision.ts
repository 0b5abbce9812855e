// What `npm test` needs from the system beyond npm, and how it gets it. A newcomer's fresh machine has
// Node and npm and nothing else, so the test command provisions the rest itself: it finds what is
// missing, installs it with apt where it may (root, or sudo without a password), says in one line
// what it installs and why, and otherwise stops at once with the one command to run. CI (`.ci/run`)
// takes the same path, so what CI proves is what a newcomer gets.
//
// The decision (`decideProvisioning`) is pure so it can be tested for every case; probing the
// machine (`findMissing`, `installRights`) and acting on the decision (`provision`) are separate.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A Debian package the tests need, why, and how to tell it is there without asking dpkg. */
export interface SystemRequirement {
  /** The apt package that provides it. */
  readonly pkg: string;
  /** Why the tests need it, in a few words (printed when it is installed or missing). */
  readonly why: string;
  /** Executables that must all be on PATH (or in an sbin folder, where Debian puts servers). */
  readonly commands?: readonly string[];
  /** Files of which at least one must exist. */
  readonly anyFile?: readonly string[];
}

/** Everything the integration and end-to-end phases need; `.ci/run` installs nothing of its own. */
export const SYSTEM_REQUIREMENTS: readonly SystemRequirement[] = [
  {
    pkg: 'chromium',
    why: 'the end-to-end tests drive the app in Chromium',
    // The same browser playwright.config.ts launches.
    anyFile: [process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'],
  },
  {
    pkg: 'dbus',
    why: 'a private D-Bus session for the test keychain',
    commands: ['dbus-run-session', 'dbus-send'],
  },
  {
    pkg: 'gnome-keyring',
    why: 'a real OS keychain (Secret Service) for the vault',
    commands: ['gnome-keyring-daemon'],
  },
  { pkg: 'libsecret-tools', why: 'secret-tool, to inspect the test keychain', commands: ['secret-tool'] },
  {
    pkg: 'fonts-noto-color-emoji',
    why: 'emoji in the screenshots the end-to-end tests take',
    anyFile: ['/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf'],
  },
  {
    pkg: 'nats-server',
    why: "the team relay's tests run against a real NATS server",
    commands: ['nats-server'],
  },
];

/** How this process may install system packages. */
export type InstallRights = 'root' | 'sudo' | 'none';

export interface MachineFacts {
  readonly platform: NodeJS.Platform;
  /** `apt-get` is on PATH (Debian, Ubuntu and their kin). */
  readonly hasApt: boolean;
  readonly rights: InstallRights;
  /** The user asked not to install anything (PARLEY_NO_INSTALL=1): say what to run instead. */
  readonly installRefused: boolean;
}

export type ProvisioningDecision =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'install';
      /** The one line printed before installing: what and why. */
      readonly announcement: string;
      /** argv prefix: [] as root, ['sudo', '-n'] otherwise. */
      readonly elevate: readonly string[];
      readonly packages: readonly string[];
    }
  | {
      readonly kind: 'stop';
      /** One line: what is missing, why, and the command to run. */ readonly message: string;
    };

const APT_INSTALL = 'apt-get install -y --no-install-recommends';

function listed(missing: readonly SystemRequirement[]): string {
  return missing.map((r) => `${r.pkg} (${r.why})`).join(', ');
}

/** What to do about the missing requirements on a machine like this one. */
export function decideProvisioning(
  missing: readonly SystemRequirement[],
  machine: MachineFacts,
): ProvisioningDecision {
  if (missing.length === 0) return { kind: 'ready' };
  const packages = missing.map((r) => r.pkg);
  if (machine.platform !== 'linux' || !machine.hasApt) {
    return {
      kind: 'stop',
      message:
        `npm test needs ${listed(missing)}; this machine has no apt-get to install them with. ` +
        `Install those packages (Debian names) with your system's package manager, then run npm test again.`,
    };
  }
  const command = `sudo ${APT_INSTALL} ${packages.join(' ')}`;
  if (machine.installRefused || machine.rights === 'none') {
    const reason = machine.installRefused
      ? 'PARLEY_NO_INSTALL is set'
      : 'installing needs root or passwordless sudo';
    return { kind: 'stop', message: `npm test needs ${listed(missing)} (${reason}); run: ${command}` };
  }
  return {
    kind: 'install',
    announcement: `npm test: installing ${listed(missing)} with apt`,
    elevate: machine.rights === 'root' ? [] : ['sudo', '-n'],
    packages,
  };
}

// Debian installs some servers (nats-server) in /usr/sbin, which is on root's PATH but not a user's.
const SBIN_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

function onPath(command: string, path: string): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, command), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** The requirements this machine does not meet, judged by the commands and files they provide. */
export function findMissing(
  requirements: readonly SystemRequirement[] = SYSTEM_REQUIREMENTS,
  path: string = [process.env['PATH'] ?? '', ...SBIN_DIRS].join(delimiter),
  fileExists: (file: string) => boolean = existsSync,
): SystemRequirement[] {
  return requirements.filter(
    (r) =>
      !(r.commands ?? []).every((c) => onPath(c, path)) ||
      (r.anyFile !== undefined && !r.anyFile.some(fileExists)),
  );
}

function succeeds(argv: readonly string[]): boolean {
  const [command, ...args] = argv as [string, ...string[]];
  const run = spawnSync(command, args, { stdio: 'ignore' });
  return run.error === undefined && run.status === 0;
}

export function machineFacts(): MachineFacts {
  const path = process.env['PATH'] ?? '';
  const root = process.getuid?.() === 0;
  return {
    platform: process.platform,
    hasApt: onPath('apt-get', path),
    rights: root ? 'root' : onPath('sudo', path) && succeeds(['sudo', '-n', 'true']) ? 'sudo' : 'none',
    installRefused: process.env['PARLEY_NO_INSTALL'] === '1',
  };
}

function apt(elevate: readonly string[], args: readonly string[]): boolean {
  const [command, ...rest] = [...elevate, 'apt-get', ...args] as [string, ...string[]];
  const run = spawnSync(command, rest, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return run.error === undefined && run.status === 0;
}

/**
 * Makes sure the system has what the tests need. Returns null when it does (after installing what
 * was missing, if it could), or the one line to print before stopping.
 */
export function provision(log: (line: string) => void = console.log): string | null {
  const decision = decideProvisioning(findMissing(), machineFacts());
  if (decision.kind === 'ready') return null;
  if (decision.kind === 'stop') return decision.message;
  log(decision.announcement);
  const install = ['install', '-y', '--no-install-recommends', ...decision.packages];
  // A fresh machine often has no package lists yet: install straight away when they are there,
  // else fetch the lists once and try again.
  if (
    !apt(decision.elevate, install) &&
    !(apt(decision.elevate, ['update']) && apt(decision.elevate, install))
  ) {
    return `npm test: apt could not install ${decision.packages.join(' ')}; run: sudo ${APT_INSTALL} ${decision.packages.join(' ')}`;
  }
  const still = findMissing();
  if (still.length > 0) {
    return `npm test: after installing, still missing ${listed(still)}; check that PATH includes /usr/bin and /usr/sbin`;
  }
  return null;
}
