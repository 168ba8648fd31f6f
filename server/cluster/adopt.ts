/**
 * What creates a company hands it to: in a process of several (issue #35), this process takes
 * the new company's lease before the creating handler writes its first settings; a process
 * alone runs every company already.
 */
import type { AppDeps } from "../deps.ts";

/** The hook a company's creation calls once the company exists. */
export function adopter(deps: AppDeps): (companyId: number) => Promise<void> {
  return async (companyId) => {
    await deps.cluster?.adopt(companyId);
  };
}
