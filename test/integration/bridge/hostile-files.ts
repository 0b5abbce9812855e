/**
 * Files a customer could send, typed the way the service may state them: documents that run script
 * when a browser renders them (SVG, XHTML, HTML, XML), script itself, types with parameters or odd
 * casing, and no type at all. Each says how a host must serve it: under a media type a browser only
 * draws (inline), or as opaque bytes to download.
 */
import { PNG } from './support.ts';

export interface HostileFile {
  what: string;
  /** The type as the service states it. */
  mimeType: string;
  filename: string;
  bytes: Buffer;
  /** The content-type a host may serve it under; anything not inline is application/octet-stream. */
  served: string;
  inline: boolean;
}

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>parent.parleyBridge;fetch("/bridge")</script></svg>',
);
const XHTML = Buffer.from(
  '<html xmlns="http://www.w3.org/1999/xhtml"><body><script>alert(document.cookie)</script></body></html>',
);
const HTML = Buffer.from('<!doctype html><script src="/attachments/evil-js"></script>');
const JS = Buffer.from('new WebSocket(`ws://${location.host}/bridge`);');

const download = (what: string, mimeType: string, filename: string, bytes: Buffer): HostileFile => ({
  what,
  mimeType,
  filename,
  bytes,
  served: 'application/octet-stream',
  inline: false,
});

export const HOSTILE_FILES: readonly HostileFile[] = [
  download('SVG with script', 'image/svg+xml', 'logo.svg', SVG),
  download('SVG with a charset parameter', 'image/svg+xml; charset=utf-8', 'logo.svg', SVG),
  download('SVG in odd casing and spacing', '  Image/SVG+XML ;charset=UTF-8', 'logo.svg', SVG),
  download('SVG with an XHTML root', 'image/svg+xml', 'card.svg', XHTML),
  download('XHTML', 'application/xhtml+xml', 'page.xhtml', XHTML),
  download('HTML', 'text/html', 'page.html', HTML),
  download('HTML with a charset', 'text/html; charset=utf-8', 'page.html', HTML),
  download('XML', 'text/xml', 'data.xml', XHTML),
  download('JavaScript', 'text/javascript', 'evil.js', JS),
  download('JavaScript, application type', 'application/javascript', 'evil.js', JS),
  download('ECMAScript module', 'text/javascript; charset=utf-8', 'evil.mjs', JS),
  download('text with a charset', 'text/plain; charset=utf-8', 'note.txt', HTML),
  download('a vCard', 'text/vcard', 'contact.vcf', Buffer.from('BEGIN:VCARD\r\nEND:VCARD\r\n')),
  download('a PDF', 'application/pdf', 'form.pdf', Buffer.from('%PDF-1.4\n%%EOF\n')),
  download('no type at all', '', 'mystery', HTML),
  download('octet-stream holding HTML', 'application/octet-stream', 'mystery.bin', HTML),
  download('an unparseable type', ';;;', 'odd', HTML),
  {
    what: 'a PNG',
    mimeType: 'image/png',
    filename: 'photo.png',
    bytes: PNG,
    served: 'image/png',
    inline: true,
  },
  {
    what: 'a PNG in odd casing with a parameter',
    mimeType: 'IMAGE/PNG; name=photo.png',
    filename: 'photo.png',
    bytes: PNG,
    served: 'image/png',
    inline: true,
  },
  {
    what: 'HTML claiming to be a JPEG',
    mimeType: 'image/jpeg',
    filename: 'photo.jpg',
    bytes: HTML,
    served: 'image/jpeg',
    inline: true,
  },
  {
    what: 'a video',
    mimeType: 'video/mp4',
    filename: 'clip.mp4',
    bytes: Buffer.from([0, 0, 0, 24, 102, 116, 121, 112]),
    served: 'video/mp4',
    inline: true,
  },
];

/** A content type a browser could run script in, if it rendered the response as a document. */
export const SCRIPT_CAPABLE = /html|xml|svg|javascript|ecmascript|text\//i;
