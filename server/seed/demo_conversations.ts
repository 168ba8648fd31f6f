/**
 * A few customer messages for a freshly seeded demo, so the first login of `npm start`
 * shows tickets waiting. They go through the simulator phone and the real inbound path
 * (contact, ticket, greeting menu), exactly as a person on /simulator would send them.
 * Test servers do not call this: their tests count tickets from zero.
 */
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import type { AppDeps } from "../deps.ts";

const CUSTOMERS = [
  { from: "5511987650001", name: "Mariana Souza", body: "Oi! Meu pedido ainda não chegou, podem me ajudar?" },
  { from: "5511987650002", name: "Carlos Lima", body: "Boa tarde, quero saber o preço do plano anual." },
  { from: "5521998760003", name: "Beatriz Rocha", body: "Olá, preciso da segunda via do boleto." },
] as const;

/** Sends the demo customers' first messages on the company's default simulator connection. */
export async function seedDemoConversations(deps: AppDeps, companyId: number): Promise<number> {
  const connections = await whatsapps.in(deps.system, companyId).list();
  const phone = connections.find((w) => w.isDefault && w.provider === "simulator");
  if (!phone) return 0;
  const simulator = await deps.channels.simulator(companyId, phone.id);
  for (const customer of CUSTOMERS) simulator.inbound({ ...customer, isGroup: false });
  return CUSTOMERS.length;
}
