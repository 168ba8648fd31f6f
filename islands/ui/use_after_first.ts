/**
 * `useEffect` that skips its first run when the page already has the data that run would
 * load (rendered on the server): a page's first paint needs no second fetch of it.
 */
import { type DependencyList, useEffect, useRef } from "react";

/** Runs `effect` on every change of `deps`, and on mount too unless `skipFirst`. */
export function useAfterFirst(effect: () => void, deps: DependencyList, skipFirst: boolean): void {
  const first = useRef(true);
  useEffect(() => {
    const wasFirst = first.current;
    first.current = false;
    if (wasFirst && skipFirst) return;
    effect();
  }, deps);
}
