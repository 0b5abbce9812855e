import type { Call, Org } from './model.ts';
import { callEventData } from './webhook-data.ts';
import type { World } from './world.ts';

/** Records a completed call on a line and emits `call.completed` (V2 has no REST for calls). */
export function completeCall(world: World, org: Org, call: Call): Call {
  org.calls.push(call);
  world.emit(org, 'call.completed', callEventData(call));
  return call;
}
