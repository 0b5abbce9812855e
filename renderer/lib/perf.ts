/**
 * User Timing marks at the moments agents feel (read by `npm run bench:ui`, visible in DevTools'
 * Performance panel): the inbox first interactive, a conversation switch and its first painted
 * frame, Enter and the optimistic bubble on screen. A handful per user action, never per row.
 */
export function mark(name: string, detail?: unknown, startTime?: number): void {
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
