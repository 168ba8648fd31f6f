/** A second tenant for cross-company tests, created through the API as the platform owner. */
import assert from "node:assert/strict";
import type { Client, TestServer } from "./server.ts";

export interface Tenant {
  companyId: number;
  adminId: number;
  admin: Client;
  email: string;
}

/** Signs up company `name` with admin `admin@{slug}.local` (password demo1234) and logs in. */
export async function createTenant(server: TestServer, name: string): Promise<Tenant> {
  const owner = await server.login("super@balcao.local");
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const email = `admin@${slug}.local`;
  const created = await owner.post("/companies/internal", {
    namecomplete: `Admin ${name}`,
    name,
    email,
    password: "demo1234",
    phone: "5511999990000",
    pais: "BR",
    planId: server.demo!.planId,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const admin = await server.login(email);
  return { companyId: created.body.company.id, adminId: created.body.user.id, admin, email };
}
