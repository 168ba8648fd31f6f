/** The shapes the queues page reads from the API (GET /queue, GET /queue-options, GET /users/list). */
import type { Queue } from "../../domain/queue.ts";
import type { QueueOption } from "../../domain/queue_option.ts";

/** A queue as GET /queue answers it. */
export type QueueRow = Queue;

/** A bot option as GET /queue-options answers it: the record plus its signed media URL. */
export interface OptionRow extends QueueOption {
  mediaUrl: string | null;
}

/** A user of the company as a choice (an attendant option's target). */
export interface UserChoice {
  id: number;
  name: string;
}
