/** V3 bodies as V3-DECISIONS.md shapes them: what the sandbox and the service send. */
export const LINE = '+14155550100';
export const CUSTOMER = '+14155550123';

export const meHandle = {
  id: '0f6b8a0e-1a51-4d0e-9e55-1b2f0b5b9a01',
  handle: LINE,
  service: 'iMessage',
  joined_at: '2026-11-20T10:00:00Z',
  status: 'active',
  left_at: null,
  is_me: true,
};

export const customerHandle = {
  id: '0f6b8a0e-1a51-4d0e-9e55-1b2f0b5b9a02',
  handle: CUSTOMER,
  service: 'iMessage',
  joined_at: '2026-11-20T10:00:00.123456+00:00',
  status: 'active',
  left_at: null,
  is_me: false,
};

export const chatBody = {
  id: '5e0c2c9e-9f7c-4c63-8a7e-2a0f5f3b7c10',
  display_name: null,
  handles: [meHandle, customerHandle],
  is_group: false,
  service: 'iMessage',
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-23T09:30:00.5+01:00',
  is_archived: false,
  health_status: {
    status: 'AT_RISK',
    doc_url: 'https://docs.example.invalid/health',
    updated_at: '2026-11-23T08:00:00Z',
  },
};

export const messageBody = {
  id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b20',
  chat_id: chatBody.id,
  is_from_me: false,
  from_handle: customerHandle,
  parts: [
    {
      type: 'text',
      value: 'Here is the floor plan',
      reactions: [
        { handle: meHandle, is_me: true, type: 'love', custom_emoji: null },
        { handle: customerHandle, is_me: false, type: 'custom', custom_emoji: '🏠' },
      ],
    },
    {
      type: 'media',
      id: 'a1b2c3d4-0000-4000-8000-000000000001',
      url: 'https://files.example.invalid/plan.pdf',
      filename: 'plan.pdf',
      mime_type: 'application/pdf',
      size_bytes: 48213,
      reactions: [],
    },
    { type: 'app_card', app: { name: 'Pay' }, reactions: [] },
  ],
  delivery_status: 'received',
  is_delivered: true,
  is_read: false,
  service: 'iMessage',
  preferred_service: null,
  sent_at: '2026-11-23T09:29:59Z',
  delivered_at: '2026-11-23T09:30:00Z',
  read_at: null,
  created_at: '2026-11-23T09:29:59Z',
  updated_at: '2026-11-23T09:30:00Z',
  reply_to: { message_id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b19', part_index: 0 },
  effect: { type: 'screen', name: 'confetti' },
  some_future_field: { anything: true },
};
