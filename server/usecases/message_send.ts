/**
 * Sending a message into a ticket: the paths every sender shares. All of them end in the
 * outbound path (actors/messages/outbound.ts `sendOutgoing`: stored with ack 0 and its outbox
 * entry, shown live to the agents who may see the ticket, then handed to the connection's
 * paced sender); what they share before that is here:
 * - uploaded files, each stored as its message's media (an agent's reply, the external API);
 * - a stored file of the company copied for a new message, so every message owns its media
 *   and deleting one never removes another's (the bot's option media, a schedule's, a
 *   campaign's, a forward);
 * - the agent's reply itself (`sendAgentMessage`, POST /messages/{ticketId}), with the
 *   refusals of a send (`assertCanSend`) and the signature.
 * Which ticket a message to a number joins is contact_ticket.ts.
 */
import { duplicateMedia, mimeOfFile, saveMedia } from "../../actors/messages/media_files.ts";
import { type OutgoingDraft, sendOutgoing } from "../../actors/messages/mod.ts";
import { getUser } from "../../actors/platform/lookup.ts";
import type { Contact } from "../../domain/contact.ts";
import { AppError } from "../../domain/errors.ts";
import { mediaTypeOfMime, type MessageView, parseMessageId, type SendMessageInput, signedBody } from "../../domain/message.ts";
import type { Principal } from "../../domain/permissions.ts";
import { settingOn } from "../../domain/settings.ts";
import type { Ticket } from "../../domain/ticket.ts";
import type { AppDeps } from "../deps.ts";

/** One uploaded file and its caption. */
export interface Upload {
  file: File;
  caption: string;
}

/** What the messages of one send share besides their bodies. */
interface UploadOptions {
  userId?: number | null;
  /** Quoted by the first message only. */
  quotedMsgId?: string | null;
  /** Turns a caption into the body sent (the agent's signature); as it is when absent. */
  sign?: (caption: string) => string;
  contact?: Contact;
}

/**
 * Stores each upload as a file of the company and sends it in `ticket`, one message per file,
 * captioned with its caption (else its file name); resolves with the messages' views.
 */
export async function sendUploads(
  deps: AppDeps,
  ticket: Ticket,
  uploads: readonly Upload[],
  options: UploadOptions = {},
): Promise<MessageView[]> {
  const views: MessageView[] = [];
  for (const [i, { file, caption }] of uploads.entries()) {
    const stored = await saveMedia(deps.config.dataDir, ticket.companyId, file.name, file.stream(), file.type);
    const { view } = await sendOutgoing(deps, ticket, {
      body: caption ? (options.sign ? options.sign(caption) : caption) : file.name,
      mediaType: mediaTypeOfMime(file.type),
      media: { file: stored, name: file.name, mimetype: file.type || "application/octet-stream" },
      ...(options.quotedMsgId !== undefined ? { quotedMsgId: i === 0 ? options.quotedMsgId : null } : {}),
      ...(options.userId !== undefined ? { userId: options.userId } : {}),
    }, options.contact);
    views.push(view);
  }
  return views;
}

/**
 * The media of a new message: a copy of the company's stored file `path`, named `name`, typed
 * by `mimetype` (else by the name's extension). Rejects when the file is gone.
 */
export async function mediaCopy(
  deps: AppDeps,
  companyId: number,
  path: string,
  name: string,
  mimetype = mimeOfFile(name),
): Promise<Required<Pick<OutgoingDraft, "media" | "mediaType">>> {
  const file = await duplicateMedia(deps.config.dataDir, companyId, path);
  return { media: { file, name, mimetype }, mediaType: mediaTypeOfMime(mimetype) };
}

/** The refusals of a send: the ticket must be open and its connection able to send. */
export async function assertCanSend(deps: AppDeps, ticket: Ticket): Promise<void> {
  if (ticket.status !== "open") {
    throw new AppError("ERR_CREATING_MESSAGE", {
      status: 400,
      message: ticket.status === "pending"
        ? `Ticket ${ticket.id} is pending: accept it before replying`
        : `Ticket ${ticket.id} is closed: reopen it before replying`,
    });
  }
  if (ticket.whatsappId === null || !await deps.outbound.ready(ticket.companyId, ticket.whatsappId)) {
    throw new AppError("ERR_WAPP_NOT_INITIALIZED", {
      status: 400,
      message: `Connection ${ticket.whatsappId ?? "(none)"} of ticket ${ticket.id} is not connected`,
    });
  }
}

const blank = () =>
  new AppError("ERR_VALIDATION", {
    status: 400,
    message: "Message body is blank",
    fields: { body: "Required" },
  });

/**
 * An agent's reply in `ticket` (which `who` may write in): the text, else one message per
 * upload. Signed as `*{user name}:*` when the company's `sendSignMessage` is on and the input
 * does not say `signMessage: false` (a media message without caption is not signed); a quoted
 * message counts only when it is of this ticket. Resolves with the stored messages' views.
 */
export async function sendAgentMessage(
  deps: AppDeps,
  who: Principal,
  { ticket, settings }: { ticket: Ticket; settings: Record<string, string> },
  input: SendMessageInput,
  uploads: readonly Upload[],
): Promise<MessageView[]> {
  const text = input.body.trim();
  if (uploads.length === 0 && text === "") throw blank();
  await assertCanSend(deps, ticket);
  const user = await getUser(deps.system, who.id);
  const sign = settingOn(settings.sendSignMessage) && input.signMessage !== false && user !== undefined;
  const withSignature = (body: string) => (sign && body !== "" ? signedBody(user!.name, body) : body);
  const quoted = input.quotedMsg && parseMessageId(input.quotedMsg)?.ticketId === ticket.id ? input.quotedMsg : null;
  if (uploads.length === 0) {
    const { view } = await sendOutgoing(deps, ticket, { body: withSignature(text), quotedMsgId: quoted, userId: who.id });
    return [view];
  }
  return await sendUploads(deps, ticket, uploads, { userId: who.id, quotedMsgId: quoted, sign: withSignature });
}
