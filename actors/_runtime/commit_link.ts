/**
 * Two actors' writes in one KV atomic. Each actor's handler commits its own unit, so a change
 * that spans two actors (a message stored by its conversation, then noted on its ticket by the
 * company's desk) used to be two commits, and a crash between them left the first without the
 * second. `ActorRef.askLinked` runs the first handler and holds its unit back in a link; the
 * caller hands the link to the second ask (`ActorRef.askJoined`), whose unit is then committed
 * with the held one, merged into one unit, so both land or neither does. Nothing extra is
 * written, and the pair waits for one commit, not two in a row.
 *
 * While its unit is held the first actor handles no further message (system.ts), so none of
 * its later writes can land before the held one. The second handler must therefore never wait
 * on the first actor, and the caller must release the link (`alone`) on every path that does
 * not reach the second handler; the system also releases it when the second handler fails.
 */
import type { GroupCommitter, Settled, WriteUnit } from "./committer.ts";

interface Held {
  unit: WriteUnit;
  settled: Settled;
}

/** A unit held back until a second one joins it, or it is released alone; see the module doc. */
export class CommitLink {
  #held: Held | undefined;
  readonly #released = Promise.withResolvers<void>();

  constructor(readonly committer: GroupCommitter, unit: WriteUnit, settled: Settled) {
    this.#held = { unit, settled };
  }

  /** Resolves once the held unit is in the committer, alone or joined. */
  get released(): Promise<void> {
    return this.#released.promise;
  }

  /** Commits the held unit and `unit` in one atomic; false (taking nothing) once released. */
  join(unit: WriteUnit, settled: Settled): boolean {
    const held = this.#take();
    if (!held) return false;
    this.committer.commitTogether(held.unit, held.settled, unit, settled);
    return true;
  }

  /** Commits the held unit on its own; nothing once released. */
  alone(): void {
    const held = this.#take();
    if (held) this.committer.commitThen(held.unit, held.settled);
  }

  #take(): Held | undefined {
    const held = this.#held;
    this.#held = undefined;
    if (held) this.#released.resolve();
    return held;
  }
}
