/**
 * Several processes of `server/main.ts` over one store file (issue #35): a store seeded with
 * the demo by a process alone, then nodes started on it with BALCAO_NODE and a fixed port each
 * (the address the others forward to). The test process reads the store file too (leases).
 */
import { startServer } from "../../server/start.ts";
import { seedDemoConversations } from "../../server/seed/demo_conversations.ts";
import type { Lease } from "../../server/cluster/leases.ts";
import { type ChildServer, spawnServer } from "./child_server.ts";
import { DEMO_PASSWORD } from "./server.ts";

/** The secret every child of child_server.ts runs with (tokens must verify on each node). */
export const CHILD_SECRET = "child-server-test-secret";

/** A port free now (the node's fixed address). */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** A store in `dir` with the demo and its conversations, written by a process alone; the demo's company id. */
export async function seedStore(dir: string): Promise<number> {
  const server = await startServer({
    port: 0,
    kvPath: `${dir}/store.kv`,
    dataDir: `${dir}/media`,
    demo: true,
    demoHistory: false,
    demoPassword: DEMO_PASSWORD,
    passwordHash: "fast",
    secret: CHILD_SECRET,
  });
  try {
    await seedDemoConversations(server.deps, server.demo!.companyId);
    return server.demo!.companyId;
  } finally {
    await server.close();
  }
}

/** A node of the cluster: its child process and name. */
export interface Node extends ChildServer {
  name: string;
  port: number;
}

/** Starts node `name` on the store in `dir`, listening on `port` (leases of `leaseMs`). */
export async function startNode(dir: string, name: string, port = freePort(), env: Record<string, string> = {}): Promise<Node> {
  const child = await spawnServer({
    kvPath: `${dir}/store.kv`,
    dataDir: `${dir}/media`,
    port,
    env: {
      BALCAO_NODE: name,
      BALCAO_NODE_URL: `http://127.0.0.1:${port}`,
      BALCAO_LEASE_MS: "2000",
      BALCAO_DEMO: "0",
      ...env,
    },
  });
  return Object.assign(child, { name, port });
}

/** The lease of company `companyId` as stored, read with a handle of this test process. */
export async function leaseOf(dir: string, companyId: number): Promise<Lease | null> {
  const kv = await Deno.openKv(`${dir}/store.kv`);
  try {
    return (await kv.get<Lease>(["lease", companyId])).value;
  } finally {
    kv.close();
  }
}

/** Waits until company `companyId` is held (its lease live) and returns the owner's name. */
export async function ownerOf(dir: string, companyId: number, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lease = await leaseOf(dir, companyId);
    if (lease && lease.expiresAt > Date.now()) return lease.node;
    if (Date.now() > deadline) throw new Error(`Company ${companyId} has no owner after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Waits until every company of `companyIds` is held and no move is under way (after a node
 * joins, the rebalancing moves one company once: server/cluster/member.ts); their owners.
 */
export async function settledOwners(dir: string, companyIds: number[], timeoutMs = 20_000): Promise<Map<number, string>> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  let stableSince = Date.now();
  for (;;) {
    const kv = await Deno.openKv(`${dir}/store.kv`);
    let owners: Map<number, string>;
    let moving: boolean;
    try {
      owners = new Map();
      for (const id of companyIds) {
        const lease = (await kv.get<Lease>(["lease", id])).value;
        if (lease && lease.expiresAt > Date.now()) owners.set(id, lease.node);
      }
      moving = (await Array.fromAsync(kv.list({ prefix: ["lease_claim"] }))).length > 0;
    } finally {
      kv.close();
    }
    const now = JSON.stringify([...owners]);
    if (now !== last || moving || owners.size < companyIds.length) stableSince = Date.now();
    last = now;
    // Unchanged for two placement rounds: settled.
    if (Date.now() - stableSince > 2500) return owners;
    if (Date.now() > deadline) throw new Error(`Companies ${companyIds} did not settle: ${now}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
