/** Scheduled messages of a company (issue #17): what other areas call. */
import type { ActorSystem } from "../_runtime/system.ts";
import type { Schedule } from "../../domain/schedule.ts";
import { schedulesActor, type SchedulesState } from "./actor.ts";

export {
  type ScheduleDraft,
  scheduleKey,
  scheduleMissing,
  schedulesActor,
  type SchedulesState,
  viewOfSchedule,
} from "./actor.ts";
export { bindSchedulePorts, type SchedulePorts, schedulePorts } from "./ports.ts";

/** The company's schedules actor (to ask it). */
export function schedulesOf(system: ActorSystem, companyId: number) {
  return system.ref(schedulesActor, companyId);
}

/** The company's schedules (in-memory, no mailbox), for reads only. */
export async function schedulesList(system: ActorSystem, companyId: number): Promise<Schedule[]> {
  const state = await schedulesOf(system, companyId).peek<SchedulesState>();
  return [...state.records.values()];
}

/** One schedule of the company, or undefined. */
export async function getSchedule(system: ActorSystem, companyId: number, id: number): Promise<Schedule | undefined> {
  return (await schedulesOf(system, companyId).peek<SchedulesState>()).records.get(id);
}
