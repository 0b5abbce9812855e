/**
 * A desktop's presence in its own process, for the test that kills it: joins with PARLEY_JOIN_CODE,
 * says its agent is available and typing in chat 7, heartbeats quickly, prints "ready", and waits
 * to be killed.
 */
import { connectWithJoinCode } from '../../../electron/core/relay/connect.ts';
import { PresencePublisher } from '../../../electron/core/team/presence.ts';

const { nc, agentId } = await connectWithJoinCode(process.env.PARLEY_JOIN_CODE ?? '', { reconnect: false });
const presence = await PresencePublisher.start(nc, { agentId, heartbeatMs: 200 });
await presence.setChatActivity(7, 'typing');
process.stdout.write('ready\n');
setInterval(() => undefined, 60_000);
