/**
 * Joining a team from Settings: a real relay (its own nats-server, the sandbox's organization) gives
 * an agent a join code; pasted into "Join your team", it brings the organization's inbox to this
 * desktop with no token, a message sent there reaches the service once (through the relay), and
 * the live status says the events come through the team's relay.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { startRelay, type RunningRelay } from '../../electron/relay/relay.ts';
import { chatTitle } from '../../renderer/lib/chat-presentation.ts';
import { DEMO_TOKEN } from '../../sandbox/index.ts';
import type { Chat } from '../../shared/domain.ts';
import { expect, openInbox, test } from './support/parley.ts';
import { bubble, chatRow, conversationList, goTo, liveIndicator, openChat, send } from './support/screen.ts';

let relay: RunningRelay | undefined;
let relayDir: string | undefined;

test.afterEach(async () => {
  await relay?.stop();
  if (relayDir) rmSync(relayDir, { recursive: true, force: true });
  relay = undefined;
});

/** The team's relay on the organization the demo shows (the same sandbox, its token). */
async function startTeamRelay(serviceUrl: string): Promise<RunningRelay> {
  relayDir = mkdtempSync(join(tmpdir(), 'parley-e2e-relay-'));
  const running = await startRelay({
    dataDir: relayDir,
    service: { baseUrl: serviceUrl, apiVersion: 'v2', token: DEMO_TOKEN },
    vault: new InMemoryVault(),
  });
  await expect
    .poll(() => running.session.sync.status.phase, { message: "the relay's first sync", timeout: 30_000 })
    .toBe('incremental');
  return running;
}

test("an agent joins the team with a join code: the organization's inbox, a send that goes out once, live via the relay", async ({
  page,
  parley,
}) => {
  test.slow(); // a relay with its own nats-server and first sync, then the desktop's through it
  relay = await startTeamRelay(parley.sandbox.url);
  const { joinCode } = await relay.agents.add('Dana');
  const organizationChat = relay.session.store.chats.list({ limit: 10 }).find((c) => !c.isGroup) as Chat;
  await openInbox(page, parley);

  // Given the agent opens Settings and chooses to join their team
  await goTo(page, 'Settings');
  await page.getByRole('button', { name: 'Join your team' }).click();
  const form = page.getByRole('heading', { name: 'Join your team' }).locator('..');

  // When they paste the join code the relay printed, name the workspace and join
  await form.getByLabel('Join code').fill(joinCode);
  await form.getByLabel('Workspace name').fill('Harbor team');
  await form.getByRole('button', { name: 'Join' }).click();

  // Then the team's workspace replaces the demo, joined through the relay, holding no token
  await expect(page.getByRole('button', { name: 'Workspace: Harbor team' })).toBeVisible();
  expect(
    (await parley.call('workspaces.list', {})).workspaces.map((w) => [w.name, w.kind, w.active]),
  ).toEqual([['Harbor team', 'relay', true]]);

  // And the inbox shows the organization's conversations, as the relay has them
  await goTo(page, 'Inbox');
  await expect(conversationList(page).getByRole('option').first()).toBeVisible();
  const title = chatTitle(organizationChat);
  await expect(chatRow(page, title)).toBeVisible();

  // And the live status says the events come through the team's relay
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Connection: Live\. Live via your team's relay/);

  // When the agent sends a message in one of them
  await openChat(page, title);
  const text = `Sent through the team's relay (${Date.now()})`;
  await send(page, title, text);

  // Then it reaches the service once, and the bubble says it went out
  await expect
    .poll(() => parley.copiesOnService(organizationChat.id, text), { message: 'the message on the service' })
    .toBe(1);
  await expect(bubble(page, text)).toHaveAttribute('data-state', /^(pending|sent|delivered)$/);
  expect(await parley.copiesOnService(organizationChat.id, text)).toBe(1);
});
