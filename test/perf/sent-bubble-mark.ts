import type { BrowserContext } from '@playwright/test';

/**
 * The optimistic bubble on screen, as the benchmarks observe it themselves (the app marks no bubble):
 * a page script whose MutationObserver sees each of the agent's own queued bubbles enter the DOM and
 * marks `bubble-rendered` (its detail the bubble's key) just after the next frame, as the renderer's
 * `markNextFrame` does: a task queued from an animation-frame callback runs after that frame's
 * paint. Only the latest mark is kept, so a long day does not grow the performance timeline.
 */
function markSentBubbles(): void {
  const marked = new Set<string>();
  const seen = (node: Node) => {
    if (!(node instanceof HTMLElement)) return;
    const selector = '[data-testid="message"].is-outbound[data-state="queued"]';
    const bubbles = node.matches(selector) ? [node] : [...node.querySelectorAll<HTMLElement>(selector)];
    for (const bubble of bubbles) {
      const key = bubble.dataset['key'];
      if (!key || marked.has(key)) continue;
      marked.add(key);
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          performance.clearMarks('bubble-rendered');
          performance.mark('bubble-rendered', { detail: key });
        };
        channel.port2.postMessage(null);
      });
    }
  };
  new MutationObserver((records) => {
    for (const record of records) record.addedNodes.forEach(seen);
  }).observe(document, { childList: true, subtree: true });
}

/** Every page of `context` marks its optimistic bubbles' first frame (see markSentBubbles). */
export async function observeSentBubbles(context: BrowserContext): Promise<void> {
  await context.addInitScript(markSentBubbles);
}
