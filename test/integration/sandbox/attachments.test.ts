import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectV2Error, type Harness, pdfBytes, pngBytes, startHarness, UUID } from './harness.ts';
import type { Json } from './http-clients.ts';
import { type FileServer, startFileServer } from './local-servers.ts';

let h: Harness;
let files: FileServer;
let line: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'empty' });
  files = await startFileServer();
  line = (await h.lines())[0]!.phone_number;
});
afterAll(async () => {
  await files?.close();
  await h?.stop();
});

async function messageCount(chatId: number): Promise<number> {
  return (await h.a.get(`/chats/${chatId}`)).body.data.message_count;
}

/** Downloads a stored attachment the way a client would: without the token header. */
async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

describe('uploaded files (multipart)', () => {
  it('given a PNG uploaded with a message, then the message carries it and its url serves the same bytes', async () => {
    const { chat } = await h.newChat();
    const image = pngBytes(300);
    const form = new FormData();
    form.append('message[text]', 'Photo of the leak');
    form.append(
      'message[attachments][]',
      new Blob([new Uint8Array(image)], { type: 'image/png' }),
      'leak.png',
    );
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, { form });
    expect(response.status).toBe(201);
    expect(response.body.data.attachments).toEqual([
      {
        id: expect.stringMatching(UUID),
        url: expect.any(String),
        filename: 'leak.png',
        mime_type: 'image/png',
        file_size: image.length,
      },
    ]);
    const fetched = await download(response.body.data.attachments[0].url);
    expect(fetched.status).toBe(200);
    expect(fetched.type).toContain('image/png');
    expect(fetched.bytes.equals(image)).toBe(true);

    const listed = await h.a.get(`/chats/${chat.id}/chat_messages/${response.body.data.id}`);
    expect(listed.body.data.attachments).toEqual(response.body.data.attachments);
  });

  it('given a picture and no text, when sent, then it is accepted (empty text is allowed with attachments)', async () => {
    const { chat } = await h.newChat();
    const form = new FormData();
    form.append('message[text]', '');
    form.append(
      'message[attachments][]',
      new Blob([new Uint8Array(pngBytes())], { type: 'image/png' }),
      'only-picture.png',
    );
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, { form });
    expect(response.status).toBe(201);
    expect(response.body.data.attachments).toHaveLength(1);
  });

  it('given an .exe, when uploaded, then 422 invalid_params and no message is created', async () => {
    const { chat } = await h.newChat();
    const before = await messageCount(chat.id);
    const form = new FormData();
    form.append('message[text]', 'Run this');
    form.append(
      'message[attachments][]',
      new Blob([Buffer.from('MZ\x90\x00 fake program')], { type: 'application/octet-stream' }),
      'setup.exe',
    );
    expectV2Error(await h.a.post(`/chats/${chat.id}/chat_messages`, { form }), 422, 'invalid_params');
    expect(await messageCount(chat.id)).toBe(before);
  });

  it('given one good and one forbidden file, when sent together, then 422 and nothing is stored or sent', async () => {
    const { chat } = await h.newChat();
    const before = await messageCount(chat.id);
    const form = new FormData();
    form.append('message[text]', 'Two files');
    form.append(
      'message[attachments][]',
      new Blob([new Uint8Array(pngBytes())], { type: 'image/png' }),
      'fine.png',
    );
    form.append(
      'message[attachments][]',
      new Blob([Buffer.from('echo hi')], { type: 'application/x-sh' }),
      'script.sh',
    );
    expectV2Error(await h.a.post(`/chats/${chat.id}/chat_messages`, { form }), 422, 'invalid_params');
    expect(await messageCount(chat.id)).toBe(before);
  });
});

describe('attachment_urls (downloaded by the sandbox)', () => {
  it('given a PDF served at a public URL, when sent by URL, then it is stored and served back unchanged', async () => {
    const { chat } = await h.newChat();
    const pdf = pdfBytes();
    const url = files.serve('/docs/quote-1042.pdf', pdf, 'application/pdf');
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'Your quote', attachment_urls: [url] } },
    });
    expect(response.status).toBe(201);
    const [attachment] = response.body.data.attachments;
    expect(attachment).toEqual({
      id: expect.stringMatching(UUID),
      url: expect.any(String),
      filename: 'quote-1042.pdf',
      mime_type: 'application/pdf',
      file_size: pdf.length,
    });
    expect(attachment.url).not.toBe(url);
    expect((await download(attachment.url)).bytes.equals(pdf)).toBe(true);
  });

  it('given a new chat created as multipart with a file and a URL, then both are attached to the initial message', async () => {
    const customer = await h.newCustomer();
    const url = files.serve('/img/front-door.png', pngBytes(120), 'image/png');
    const form = new FormData();
    form.append('send_from', line);
    form.append('chat[phone_numbers][]', customer);
    form.append('message[text]', 'Before and after');
    form.append('message[attachment_urls][]', url);
    form.append(
      'message[attachments][]',
      new Blob([new Uint8Array(pngBytes(90))], { type: 'image/png' }),
      'after.png',
    );
    const response = await h.a.post('/chats', { form });
    expect(response.status).toBe(201);
    const names = response.body.data.chat_messages.attachments.map((a: Json) => a.filename).sort();
    expect(names).toEqual(['after.png', 'front-door.png']);
  });

  it('given a URL of an .exe, when sent, then 422 and no message', async () => {
    const { chat } = await h.newChat();
    const before = await messageCount(chat.id);
    const url = files.serve('/bin/tool.exe', Buffer.from('MZ fake'), 'application/x-msdownload');
    expectV2Error(
      await h.a.post(`/chats/${chat.id}/chat_messages`, {
        json: { message: { text: 'tool', attachment_urls: [url] } },
      }),
      422,
      'invalid_params',
    );
    expect(await messageCount(chat.id)).toBe(before);
  });

  it('given an unreachable URL, when sent, then 422 invalid_params naming that URL, and no message', async () => {
    const { chat } = await h.newChat();
    const before = await messageCount(chat.id);
    const unreachable = 'http://127.0.0.1:9/photo.png';
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'see photo', attachment_urls: [unreachable] } },
    });
    expect(expectV2Error(response, 422, 'invalid_params').detail).toContain(unreachable);
    expect(await messageCount(chat.id)).toBe(before);
  });

  it('given a URL that answers 404, when sent, then 422 naming the URL', async () => {
    const { chat } = await h.newChat();
    const missing = `${files.url}/nothing-here.png`;
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'see photo', attachment_urls: [missing] } },
    });
    expect(expectV2Error(response, 422, 'invalid_params').detail).toContain(missing);
  });

  it('given a non-http URL, when sent, then 422 naming it', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'x', attachment_urls: ['file:///etc/passwd'] } },
    });
    expect(expectV2Error(response, 422, 'invalid_params').detail).toContain('file:///etc/passwd');
  });
});

describe('size limit', () => {
  it('given the limit lowered to 1000 bytes, when a larger file is uploaded or linked, then 422 and no message', async () => {
    const { chat } = await h.newChat();
    const before = await messageCount(chat.id);
    await h.control.ok('PUT', '/config', { attachment_max_bytes: 1000 });
    try {
      const big = pngBytes(2000);
      const form = new FormData();
      form.append('message[text]', 'big picture');
      form.append(
        'message[attachments][]',
        new Blob([new Uint8Array(big)], { type: 'image/png' }),
        'big.png',
      );
      expectV2Error(await h.a.post(`/chats/${chat.id}/chat_messages`, { form }), 422, 'invalid_params');

      const url = files.serve('/img/big.png', big, 'image/png');
      expectV2Error(
        await h.a.post(`/chats/${chat.id}/chat_messages`, {
          json: { message: { text: 'big link', attachment_urls: [url] } },
        }),
        422,
        'invalid_params',
      );
      expect(await messageCount(chat.id)).toBe(before);

      const small = new FormData();
      small.append('message[text]', 'small picture');
      small.append(
        'message[attachments][]',
        new Blob([new Uint8Array(pngBytes(500))], { type: 'image/png' }),
        'small.png',
      );
      expect((await h.a.post(`/chats/${chat.id}/chat_messages`, { form: small })).status).toBe(201);
    } finally {
      await h.control.ok('PUT', '/config', { attachment_max_bytes: 100 * 1024 * 1024 });
    }
  });
});
