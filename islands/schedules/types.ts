/** A schedule as GET /schedules answers it (domain/schedule.ts ScheduleView). */
import type { ScheduleView } from "../../domain/schedule.ts";

/** One row of the calendar and the dialog's record. */
export type ScheduleRow = ScheduleView;

/** GET /schedules body. */
export interface SchedulesResponse {
  schedules: ScheduleRow[];
  count: number;
  hasMore: boolean;
}
