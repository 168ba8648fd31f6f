/**
 * The submit of a dialog, written once: `busy` while the call runs (so its buttons are
 * disabled), and a failed call shown as a toast, unless `onFields` takes the server's field
 * errors (a 400 with `fields`) to show them next to the inputs and returns true.
 */
import { useCallback, useState } from "react";
import { toastError } from "./toast.ts";

/** Field errors as the API sends them: field name → message. */
export type FieldErrors = Record<string, string | undefined>;

/** `busy` and `run(work, onFields?)`; see the module doc. */
export function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<void>, onFields?: (fields: FieldErrors) => boolean) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      const body = (error as { body?: unknown }).body;
      const fields = (body as { fields?: FieldErrors } | undefined)?.fields;
      if (!(fields && onFields?.(fields))) toastError(body ?? error);
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, run };
}
