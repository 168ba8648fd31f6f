/** The demo tenant's connection: "WhatsApp Demo", a simulator already paired (CONNECTED). */
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { newConnectionToken, type Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { pairSimulator, simulatorNumber } from "./simulator.ts";

/** Creates the demo's default simulator connection with both queues and a greeting. */
export async function seedDemoConnection(deps: AppDeps, companyId: number, queueIds: number[]): Promise<Whatsapp> {
  const record = await whatsapps.in(deps.system, companyId).create((id, now): Whatsapp => ({
    id,
    companyId,
    name: "WhatsApp Demo",
    number: simulatorNumber(id),
    status: "CONNECTED",
    statusEvo: "DISCONNECTED",
    qrcode: "",
    qrcodeEvo: "",
    retries: 0,
    isDefault: true,
    greetingMessage: "Olá! Bem-vindo à Demo. Escolha um setor:",
    complationMessage: "Atendimento encerrado. Obrigado pelo contato!",
    outOfHoursMessage: "Estamos fora do horário de atendimento. Responderemos assim que possível.",
    ratingMessage: "",
    closeMessage: "",
    token: newConnectionToken(),
    webhook: "",
    ignoreNumbers: "",
    queueIds,
    selectedMoveQueueId: null,
    selectedInterval: 0,
    inatividade: 0,
    provider: "simulator",
    channel: "whatsapp",
    keywords: [],
    createdAt: now,
    updatedAt: now,
  }));
  await pairSimulator(deps.kv, companyId, record.id);
  return record;
}
