const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]])/g;

/** A message's text, with web links made clickable (opened by the host's allowlisted opener). */
export function MessageText({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <div className="message-text">
      {parts.length === 1
        ? text
        : parts.map((part, i) =>
            i % 2 === 1 ? (
              <a key={i} href={part} target="_blank" rel="noopener noreferrer">
                {part}
              </a>
            ) : (
              part
            ),
          )}
    </div>
  );
}
