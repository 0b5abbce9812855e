#!/usr/bin/env bash
# Runs a command inside a private, unlocked Secret Service (gnome-keyring on its own D-Bus session),
# so tests exercise a real OS keychain without ever touching the user's own keyring or needing a
# desktop session. Linux only.
#
#   bash scripts/with-keyring.sh <command> [args...]
#
# Stage 1 (no session yet): make a throwaway HOME and re-run this script under dbus-run-session.
# Stage 2 (inside the session): start gnome-keyring-daemon, wait until it owns the Secret Service
# name, then run the command. Nested calls (PARLEY_KEYRING_READY=1) run the command directly.
set -euo pipefail

if [[ $# -eq 0 ]]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

if [[ "${PARLEY_KEYRING_READY:-}" == 1 ]]; then
  exec "$@"
fi

if [[ -z "${PARLEY_KEYRING_STAGE:-}" ]]; then
  for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
    if ! command -v "$tool" >/dev/null; then
      echo "with-keyring: '$tool' not found; install: apt-get install -y dbus gnome-keyring libsecret-tools" >&2
      exit 127
    fi
  done
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/parley-keyring.XXXXXX")"
  mkdir -m 700 "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/run"
  status=0
  # The bus daemon and anything it activates inherit the throwaway dirs, so even a daemon that
  # D-Bus auto-starts keeps its keyring files in $tmp. The caller's values are kept so stage 2 can
  # give them back to the command (tool caches such as Playwright's browsers live under HOME).
  PARLEY_KEYRING_STAGE=2 PARLEY_KEYRING_DIR="$tmp" \
    PARLEY_CALLER_HOME="${HOME:-}" PARLEY_CALLER_XDG_DATA_HOME="${XDG_DATA_HOME:-}" \
    PARLEY_CALLER_XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-}" PARLEY_CALLER_XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-}" \
    HOME="$tmp/home" XDG_DATA_HOME="$tmp/data" XDG_CONFIG_HOME="$tmp/config" XDG_RUNTIME_DIR="$tmp/run" \
    dbus-run-session -- bash "$0" "$@" || status=$?
  rm -rf "$tmp"
  exit "$status"
fi

# Stage 2: inside the private D-Bus session. --unlock reads the password on stdin and creates the
# login keyring with it on first use; the password only needs to be consistent within this run.
# stdout carries env assignments (GNOME_KEYRING_CONTROL=..., possibly none); export whatever it prints.
keyring_env="$(printf '%s' parley-test | gnome-keyring-daemon --unlock --components=secrets)"
while IFS= read -r line; do
  [[ "$line" == *=* ]] && export "${line?}"
done <<<"$keyring_env"

# The daemon forks before it claims org.freedesktop.secrets; a client that asks too early makes D-Bus
# auto-start a second daemon. Wait (max ~10 s) until ours owns the name.
owned=0
for _ in $(seq 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
    owned=1
    break
  fi
  sleep 0.1
done
if [[ $owned != 1 ]]; then
  echo "with-keyring: gnome-keyring-daemon did not register the Secret Service" >&2
  exit 1
fi

restore() { # restore VAR from PARLEY_CALLER_VAR, unsetting it if the caller had none
  local saved="PARLEY_CALLER_$1"
  if [[ -n "${!saved}" ]]; then export "$1=${!saved}"; else unset "$1"; fi
  unset "$saved"
}
restore HOME
restore XDG_DATA_HOME
restore XDG_CONFIG_HOME
restore XDG_RUNTIME_DIR
unset PARLEY_KEYRING_STAGE
export PARLEY_KEYRING_READY=1
# When the command exits, dbus-run-session tears down the bus, and the keyring daemon exits with it.
exec "$@"
