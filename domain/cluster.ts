/**
 * The platform owner's view of a cluster (issue #35, server/cluster/): the processes that
 * share the store, and the move of a company to one of them. Pure; importable by islands.
 */
import { z } from "zod";

/** A process of the cluster as `GET /cluster/nodes` answers it. */
export const ClusterNode = z.object({
  name: z.string(),
  url: z.string(),
  /** Tickets of the companies it holds, plus a weight per company (the placement's load). */
  load: z.number(),
  companies: z.array(z.number()),
  /** Its live WhatsApp sessions, `companyId:whatsappId`. */
  sessions: z.array(z.string()),
  at: z.number(),
});
export type ClusterNode = z.infer<typeof ClusterNode>;

/** `POST /companies/{id}/move`: the process to run the company. */
export const CompanyMove = z.object({
  node: z.string().min(1).max(100),
});
export type CompanyMove = z.infer<typeof CompanyMove>;
