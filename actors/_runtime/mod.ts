/** The actor runtime: declare kinds with `defineActor`, run them in an `ActorSystem`. */
export { type ActorContext, type ActorDef, type AnyActorDef, defineActor } from "./actor.ts";
export { EventBus } from "./bus.ts";
export {
  type CommitterStats,
  GroupCommitter,
  KV_LIMITS,
  type Mutation,
  type WriteUnit,
} from "./committer.ts";
export { ActorRef, ActorSystem, type ActorSystemOptions } from "./system.ts";
