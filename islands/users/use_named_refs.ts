/**
 * A list of queues or connections (id and name) for naming ids: the one the server read with
 * the page, or, when it could not, fetched once on mount (an empty list until then).
 */
import { useEffect, useState } from "react";
import { get } from "../lib/api.ts";
import { type NamedRef, namedRefs } from "./user_row.ts";

/** `initial`, or the list GET `path` answers when `initial` is null. */
export function useNamedRefs(initial: NamedRef[] | null, path: string): NamedRef[] {
  const [refs, setRefs] = useState<NamedRef[]>(initial ?? []);
  useEffect(() => {
    if (initial) return;
    get<unknown>(path).then((records) => setRefs(namedRefs(records)), () => {});
  }, []);
  return refs;
}
