/**
 * The demo tenant (issue #2): the platform owner in the platform company, and company "Demo"
 * with an admin, a supervisor and an agent, a plan with every flag on, two queues, tags and
 * quick replies, and a simulator connection already paired. Each area adds its part to
 * `seedDemo` below.
 */
import { helps } from "../../actors/helps/collection.ts";
import { announcements } from "../../actors/announcements/collection.ts";
import { PLATFORM } from "../../actors/platform/collections.ts";
import { createCompany, createPlan, createUser } from "../../actors/platform/commands.ts";
import { queues } from "../../actors/queues/collection.ts";
import { DEFAULT_LUNCH, DEFAULT_SCHEDULES, type Queue } from "../../domain/queue.ts";
import type { Profile } from "../../domain/user.ts";
import { hashPassword } from "../auth/passwords.ts";
import type { AppDeps } from "../deps.ts";
import { seedDemoConnection } from "../channels/demo.ts";
import { seedDemoCatalog } from "./demo_catalog.ts";
import { markPaymentDemo } from "../billing/providers/mod.ts";

/** True when nothing was ever stored (a fresh `BALCAO_KV`). */
export async function storeIsEmpty(kv: Deno.Kv): Promise<boolean> {
  for await (const _ of kv.list({ prefix: ["company"] }, { limit: 1 })) return false;
  return true;
}

const DAY = 86_400_000;
/** Days from the seed to the demo company's due date (see seedDemo). */
export const DEMO_DUE_DAYS = 9;

export interface DemoLogin {
  email: string;
  role: string;
  id: number;
}

export async function seedDemo(deps: AppDeps) {
  const { system, config } = deps;
  const passwordHash = await hashPassword(config.demoPassword, config.passwordHash);
  const plan = await createPlan(system, {
    name: "Completo",
    users: 50,
    connections: 10,
    queues: 20,
    value: 199.9,
    useWhatsapp: true,
    useFacebook: true,
    useInstagram: true,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useInternal: true,
    useAI: true,
  });
  const platform = await createCompany(system, {
    name: "Balcão",
    email: "super@balcao.local",
    planId: plan.id,
    dueDate: null,
  });
  // Due DEMO_DUE_DAYS ahead: inside the invoices' issue lead (INVOICE_LEAD_DAYS, 10), so the
  // coming period's invoice is issued at start-up and /financeiro has one to pay with the
  // simulator; outside the top bar's "vence em N dias" warning (under 5 days) for a few days;
  // and past the longest trial with its day of slack (8 days, islands/subscription/summary.ts),
  // so /subscription shows a paying company ('Mudar Plano'), not a trial.
  const demo = await createCompany(system, {
    name: "Demo",
    email: "admin@demo.local",
    planId: plan.id,
    dueDate: Date.now() + DEMO_DUE_DAYS * DAY,
  });

  const queueOf = (name: string, color: string, prioridade: number, greetingMessage: string) =>
    queues.in(system, demo.id).create((id, now): Queue => ({
      id,
      companyId: demo.id,
      name,
      color,
      prioridade,
      greetingMessage,
      outOfHoursMessage: "Estamos fora do horário de atendimento. Responderemos assim que possível.",
      tempoRoteador: 0,
      ativarRoteador: false,
      isChatbot: false,
      typeChatbot: "",
      n8n: "",
      n8nId: "",
      workspaceTypebot: "",
      typebotId: "",
      resetChatbotMsg: false,
      schedules: DEFAULT_SCHEDULES,
      lunchHour: DEFAULT_LUNCH,
      createdAt: now,
      updatedAt: now,
    }));
  const support = await queueOf("Suporte", "#2563eb", 1, "Você está no Suporte. Em que podemos ajudar?");
  const sales = await queueOf("Vendas", "#16a34a", 2, "Você está em Vendas. Qual produto procura?");

  const superUser = await createUser(system, {
    companyId: platform.id,
    name: "Dono da Plataforma",
    email: "super@balcao.local",
    passwordHash,
    profile: "admin",
    super: true,
  });
  const demoUser = (name: string, email: string, profile: Profile, queueIds: number[]) =>
    createUser(system, { companyId: demo.id, name, email, passwordHash, profile, queueIds });
  const admin = await demoUser("Ana Admin", "admin@demo.local", "admin", [support.id, sales.id]);
  const supervisor = await demoUser("Sérgio Supervisor", "supervisor@demo.local", "supervisor", [support.id, sales.id]);
  const agent = await demoUser("Alice Atendente", "agent@demo.local", "user", [support.id]);

  await seedDemoConnection(deps, demo.id, [support.id, sales.id]);
  await seedDemoCatalog(system, demo.id, admin.id);
  // Help screen (issue #2): two entries the platform owner can edit under Configurações > Ajuda.
  for (const [title, description, video] of [
    ["Conectar o WhatsApp", "Em Conexões, adicione uma conexão e leia o QR code com o celular.", ""],
    ["Atender um ticket", "Em Atendimentos, aceite um ticket aguardando para iniciar a conversa.", ""],
  ]) {
    await helps.in(system, PLATFORM).create((id, now) => ({ id, title, description, video, createdAt: now, updatedAt: now }));
  }

  // Announcements (issue #6): a welcome announcement from the platform owner, unread by all.
  await announcements.in(system, PLATFORM).create((id, now) => ({
    id,
    title: "Bem-vindo ao Balcão!",
    text: "Este é o sininho de informativos: a equipe da plataforma publica aqui novidades e avisos. " +
      "Abra cada um e use 'Marcar todos como lidos' quando terminar.",
    priority: 3,
    status: true,
    mediaPath: null,
    mediaName: null,
    companyId: platform.id,
    createdBy: superUser.id,
    createdAt: now,
    updatedAt: now,
  }));

  // Billing (issue #21, #38): the simulated payment provider, for the demo company of this store only.
  await markPaymentDemo(deps.kv, demo.id);

  const logins: DemoLogin[] = [
    { email: superUser.email, role: "super (platform owner)", id: superUser.id },
    { email: admin.email, role: "admin", id: admin.id },
    { email: supervisor.email, role: "supervisor", id: supervisor.id },
    { email: agent.email, role: "user (agent)", id: agent.id },
  ];
  return { planId: plan.id, platformId: platform.id, companyId: demo.id, queueIds: [support.id, sales.id], logins };
}
