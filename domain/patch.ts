/** Partial updates: a PUT body's absent fields (undefined) never overwrite stored ones. */

/** `patch` without its undefined fields, ready to spread over a stored record. */
export function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(patch).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
