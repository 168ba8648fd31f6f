/**
 * The demo company's tags and quick replies (issue #3): a kanban lane and two plain tags,
 * and three general quick replies an agent can try with "/" in the composer.
 */
import { quickMessages } from "../../actors/quick_messages/collection.ts";
import { tags } from "../../actors/tags/collection.ts";
import type { ActorSystem } from "../../actors/_runtime/system.ts";
import type { QuickMessage } from "../../domain/quick_message.ts";
import type { Tag } from "../../domain/tag.ts";

const DEMO_TAGS: Array<Pick<Tag, "name" | "color" | "kanban" | "order">> = [
  { name: "Lead quente", color: "#ef4444", kanban: 1, order: 1 },
  { name: "Cliente VIP", color: "#f59e0b", kanban: 0, order: 0 },
  { name: "Aguardando pagamento", color: "#6366f1", kanban: 0, order: 0 },
];

const DEMO_REPLIES: Array<Pick<QuickMessage, "shortcode" | "message">> = [
  { shortcode: "ola", message: "Olá! Obrigado pelo contato. Como posso ajudar?" },
  { shortcode: "pix", message: "Nossa chave Pix é o CNPJ 00.000.000/0001-00 (Demo Ltda)." },
  {
    shortcode: "horario",
    message: "Atendemos de segunda a sexta, das 8h às 18h, e aos sábados das 8h às 12h.",
  },
];

/** Seeds the demo tags and general quick replies of company `companyId`, authored by `userId`. */
export async function seedDemoCatalog(
  system: ActorSystem,
  companyId: number,
  userId: number,
): Promise<void> {
  for (const tag of DEMO_TAGS) {
    await tags.in(system, companyId).create((id, now): Tag => ({
      ...tag,
      id,
      companyId,
      userId,
      createdAt: now,
      updatedAt: now,
    }));
  }
  for (const reply of DEMO_REPLIES) {
    await quickMessages.in(system, companyId).create((id, now): QuickMessage => ({
      ...reply,
      id,
      companyId,
      userId,
      geral: true,
      status: true,
      mediaPath: null,
      mediaName: null,
      caption: "",
      createdAt: now,
      updatedAt: now,
    }));
  }
}
