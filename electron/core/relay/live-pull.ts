/**
 * How every live puller of a relay stream pulls (a desktop's team follows, the relay's sends and
 * activity; the event log is pushed, event-source.ts): short pulls with a heartbeat every second.
 * Two heartbeats missed and nats.js pulls again, or makes the consumer again if it is gone
 * (nats-server restarted), so a follower is deaf for 2 s at most. The default (30 s pulls,
 * heartbeats every 15 s) left one deaf for half a minute, and the server can drop a waiting pull
 * without the client hearing of it (seen in bench:team: a desktop deaf 7.2 s while nats.js counted
 * its pull outstanding; docs/bench/README.md, issue #18 sixth stop).
 */
export const LIVE_PULL = { expires: 5_000, idle_heartbeat: 1_000 } as const;
