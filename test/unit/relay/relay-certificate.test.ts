/**
 * TLS by default: the relay's own CA and server certificate (electron/relay/relay-certificate.ts),
 * made in a temporary folder as on a relay's first start, read back with Node's own X509Certificate.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownCertificate } from '../../../electron/relay/relay-certificate.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const read = (file: string) => new X509Certificate(readFileSync(file));

describe("the relay's own certificate", () => {
  it('is made on first start: a CA, and a server certificate it signed naming loopback and the agents’ address', async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-relay-tls-'));
    const files = await ownCertificate(dir, ['192.0.2.10', 'relay.example.com']);
    const ca = read(files.caFile);
    const server = read(files.certFile);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIP('192.0.2.10')).toBe('192.0.2.10');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(server.checkHost('relay.example.com')).toBe('relay.example.com');
    expect(server.checkHost('elsewhere.example.com')).toBeUndefined();
    // The keys only the relay's user may read
    expect(statSync(files.keyFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'ca-key.pem')).mode & 0o777).toBe(0o600);
  });

  it('keeps its CA (join codes pin it) and makes the server certificate again for a new address', async () => {
    dir = mkdtempSync(join(tmpdir(), 'parley-relay-tls-'));
    const first = await ownCertificate(dir, ['192.0.2.10']);
    const ca = readFileSync(first.caFile, 'utf8');
    const server = readFileSync(first.certFile, 'utf8');

    // Started again with the same address: nothing is made anew
    await ownCertificate(dir, ['192.0.2.10']);
    expect(readFileSync(first.certFile, 'utf8')).toBe(server);

    // With another address agents use: the same CA, a new certificate naming it, signed by it
    const second = await ownCertificate(dir, ['192.0.2.10', 'relay.example.org']);
    expect(readFileSync(second.caFile, 'utf8')).toBe(ca);
    expect(readFileSync(second.certFile, 'utf8')).not.toBe(server);
    expect(read(second.certFile).checkHost('relay.example.org')).toBe('relay.example.org');
    expect(read(second.certFile).verify(read(second.caFile).publicKey)).toBe(true);
  });
});
