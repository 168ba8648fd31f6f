/** `npm start`: runs the product and prints where to log in. */
import { startServer } from "./start.ts";
import { seedDemoConversations } from "./seed/demo_conversations.ts";

const server = await startServer();
const port = server.port;
console.log(`Balcão is running at http://localhost:${port}`);
if (server.demo) {
  console.log("Demo logins (password: %s):", server.deps.config.demoPassword);
  for (const login of server.demo.logins) console.log(`  ${login.email.padEnd(24)} ${login.role}`);
  await seedDemoConversations(server.deps, server.demo.companyId);
  console.log(`Simulated customers' phone: http://localhost:${port}/simulator (log in as admin first)`);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    await server.close();
    Deno.exit(0);
  });
}
