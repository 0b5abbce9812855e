/**
 * User Timing marks at the moments agents feel (read by `npm run bench:ui`, visible in DevTools'
 * Performance panel): the inbox first interactive, a conversation switch and its first painted
 * frame, Enter and the optimistic bubble on screen. A handful per user action, never per row.
 *
 * The performance timeline keeps every mark (with its detail) until it is cleared, so a day of
 * switching and sending grew the page's heap without bound (docs/bench/README.md): only the latest
 * mark of each name stays in the buffer. Observers and a DevTools recording still see every mark.
 */
export function mark(name: string, detail?: unknown, startTime?: number): void {
  performance.clearMarks(name);
  performance.mark(name, {
    ...(detail === undefined ? {} : { detail }),
    ...(startTime === undefined ? {} : { startTime }),
  });
}

/**
 * Marks the moment the next frame has been produced: a task queued from its animation-frame
 * callback runs right after that frame's style, layout and paint, so what was just rendered is on
 * screen by then.
 */
export function markNextFrame(name: string, detail?: unknown): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      mark(name, detail);
    };
    channel.port2.postMessage(null);
  });
}
