/** Migration 15: a message's time as the service dates it. Never edit one that has shipped (store/migrations.ts). */
export const MESSAGE_TIMES: readonly string[] = [
  /* 15: a V2 delivery dates a message to the second, a read of the chat to the millisecond; order
     within a second is the service's only once a read has dated the message (sync/chat-reader.ts
     settleTimes). 0 while only a delivery has dated it; rows stored before this migration count as
     read (their order stands as it was). */ `
  ALTER TABLE messages ADD COLUMN time_settled INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX messages_times_to_settle ON messages (chat_id, sent_at) WHERE time_settled = 0;
  `,
];
