/** Per-scope record collections held by one actor each; see actor.ts. */
export {
  type Change,
  Collection,
  type CollectionSpec,
  defineCollection,
  type Row,
  ScopedCollection,
  type TxView,
} from "./actor.ts";
