/** The demo tenant's connection: "WhatsApp Demo", a simulator already paired (CONNECTED). */
import { whatsapps } from "../../actors/whatsapps/collection.ts";
import { newConnectionToken, newWhatsapp, type Whatsapp } from "../../domain/whatsapp.ts";
import type { AppDeps } from "../deps.ts";
import { pairSimulator, simulatorNumber } from "./simulator.ts";

/** Creates the demo's default simulator connection with both queues and a greeting. */
export async function seedDemoConnection(deps: AppDeps, companyId: number, queueIds: number[]): Promise<Whatsapp> {
  const record = await whatsapps.in(deps.system, companyId).create((id, now) =>
    newWhatsapp(id, companyId, now, {
      name: "WhatsApp Demo",
      number: simulatorNumber(id),
      status: "CONNECTED",
      isDefault: true,
      greetingMessage: "Olá! Bem-vindo à Demo. Escolha um setor:",
      complationMessage: "Atendimento encerrado. Obrigado pelo contato!",
      outOfHoursMessage: "Estamos fora do horário de atendimento. Responderemos assim que possível.",
      token: newConnectionToken(),
      queueIds,
    })
  );
  await pairSimulator(deps.kv, companyId, record.id);
  return record;
}
