/**
 * TLS by default: the relay's own certificate authority and server certificate, made on first start
 * in `DIR/tls/` (ECDSA P-256 with @peculiar/x509 over WebCrypto; the keys 0600), so agents reach the
 * relay encrypted without the operator setting anything up. Join codes carry the CA, and a desktop
 * verifies the relay against it and nothing else (core/relay/connect.ts): the CA is the pin.
 *
 * The CA is made once and kept (a new one would void every join code given out). The server
 * certificate is made again when the addresses agents use are not all in it (a new `--nats-host`
 * or `--join-url`), or when it nears its end.
 */
// @peculiar/x509 (through tsyringe) needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import type { RelayTls } from './nats-server.ts';

// Node's WebCrypto is the standard one; its types and the DOM's differ only in name, so the hand-over
// to @peculiar/x509 (typed against the DOM's) is cast (`as never`), here and where keys pass.
x509.cryptoProvider.set(webcrypto as never);

type Key = webcrypto.CryptoKey;

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;
const CA_DAYS = 10 * 365;
const SERVER_DAYS = 2 * 365;
/** A server certificate this close to its end is made again at the next start. */
const RENEW_WITHIN_DAYS = 30;

/** The addresses every certificate names besides the ones asked for (the relay reaches its own server there). */
const LOOPBACK = ['127.0.0.1', 'localhost'];

export interface OwnCertificate extends RelayTls {
  caFile: string;
}

/**
 * The relay's CA and a server certificate naming `hosts` (and loopback), made or kept in `dir`.
 * Returns the files nats-server and join codes use.
 */
export async function ownCertificate(dir: string, hosts: readonly string[]): Promise<OwnCertificate> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files = {
    caFile: join(dir, 'ca.pem'),
    caKeyFile: join(dir, 'ca-key.pem'),
    certFile: join(dir, 'server.pem'),
    keyFile: join(dir, 'server-key.pem'),
  };
  const names = [...new Set([...LOOPBACK, ...hosts.filter((host) => host !== '' && host !== '0.0.0.0')])];
  const ca =
    existsSync(files.caFile) && existsSync(files.caKeyFile) ? await readCa(files) : await makeCa(files);
  if (!serverCertificateCovers(files.certFile, names)) await makeServerCertificate(files, ca, names);
  return { caFile: files.caFile, certFile: files.certFile, keyFile: files.keyFile };
}

async function makeCa(files: { caFile: string; caKeyFile: string }) {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: 'CN=Parley team relay CA',
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + CA_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys: keys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
    ],
  });
  writePrivate(files.caKeyFile, await privateKeyPem(keys.privateKey));
  writeFileSync(files.caFile, certificate.toString('pem'), { mode: 0o644 });
  return { certificate, privateKey: keys.privateKey };
}

async function readCa(files: { caFile: string; caKeyFile: string }) {
  const certificate = new x509.X509Certificate(readFileSync(files.caFile, 'utf8'));
  const der = pemBody(readFileSync(files.caKeyFile, 'utf8'));
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
  return { certificate, privateKey };
}

async function makeServerCertificate(
  files: { certFile: string; keyFile: string },
  ca: { certificate: x509.X509Certificate; privateKey: Key },
  names: readonly string[],
): Promise<void> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const now = Date.now();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: 'CN=Parley team relay',
    issuer: ca.certificate.subject,
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + SERVER_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey as never,
    signingKey: ca.privateKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((name) => ({ type: isIP(name) ? ('ip' as const) : ('dns' as const), value: name })),
      ),
    ],
  });
  writePrivate(files.keyFile, await privateKeyPem(keys.privateKey));
  writeFileSync(files.certFile, certificate.toString('pem'), { mode: 0o644 });
}

/** Whether the stored server certificate names every address and is not near its end. */
function serverCertificateCovers(certFile: string, names: readonly string[]): boolean {
  if (!existsSync(certFile)) return false;
  try {
    const certificate = new x509.X509Certificate(readFileSync(certFile, 'utf8'));
    if (certificate.notAfter.getTime() - Date.now() < RENEW_WITHIN_DAYS * DAY_MS) return false;
    const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
    const named = new Set((san?.names.toJSON() ?? []).map((entry) => entry.value));
    return names.every((name) => named.has(name));
  } catch {
    return false; // unreadable: made again
  }
}

async function privateKeyPem(key: Key): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}

function pemBody(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

function writePrivate(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing file keeps its mode through writeFileSync
}

/** A positive serial number of 16 random bytes, hex. */
function serial(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
