/**
 * The controls of the Opções tab (spec 001 §2.4, §3 "Setting", §9): every setting key grouped
 * as the spec lists them, with the kind of control that edits it. `global` sections hold
 * GLOBAL_SETTING_KEYS (the platform's, shown to super only; the server refuses anyone else's
 * write); `secret` controls are write-only (domain/settings.ts SECRET_MASK). `readBy` says
 * which server rule reads the key today — null for keys nothing reads yet (the conversation
 * engine of issue #17 will), so the tab never claims an effect the product lacks; every
 * non-null entry has a test that flips it and sees the effect (tests/settings_effects_test.ts,
 * or the mail and document tests it names). The branding keys (mainColor,
 * scrollbarColor, toolbarBackground, backgroundPages) are edited in the Cores tab.
 *
 * Four keys of spec 001 §3 have no control here on purpose (domain/settings.ts says why):
 * usoExterno, externaldownload, camposfixos and emfila. They stay stored and readable
 * through /settings, but a switch that changes nothing would only mislead.
 */
import type { LocaleKey } from "../lib/i18n.ts";

/** How a key is edited. */
export type OptionKind =
  | { type: "switch" }
  | { type: "select"; choices: readonly { value: string; label: LocaleKey }[] }
  | { type: "text"; inputType?: "text" | "url" | "email" | "number" | "tel" }
  | { type: "secret" };

/** One setting's control. */
export interface OptionControl {
  key: string;
  label: LocaleKey;
  kind: OptionKind;
  /** The server rule that reads the key, or null when none does yet. */
  readBy: string | null;
}

/** A titled group of controls. */
export interface OptionSection {
  id: string;
  title: LocaleKey;
  /** Platform keys: shown to super users only. */
  global: boolean;
  controls: readonly OptionControl[];
}

const SWITCH: OptionKind = { type: "switch" };
const TEXT: OptionKind = { type: "text" };
const URL_TEXT: OptionKind = { type: "text", inputType: "url" };
const SECRET: OptionKind = { type: "secret" };

const sw = (key: string, readBy: string | null = null): OptionControl => ({ key, label: `settingsOptions.key.${key}` as LocaleKey, kind: SWITCH, readBy });
const field = (key: string, kind: OptionKind, readBy: string | null = null): OptionControl => ({ key, label: `settingsOptions.key.${key}` as LocaleKey, kind, readBy });

/** Every section in display order. */
export const OPTION_SECTIONS: readonly OptionSection[] = [
  {
    id: "service",
    title: "settingsOptions.section.service",
    global: false,
    controls: [
      sw("userRating", "domain/ticket.ts: resolving needs a rating"),
      sw("userRatingOut", "server/usecases/rating_survey.ts: the survey of a resolve out of hours"),
      field("ratingurl", URL_TEXT, "server/usecases/rating_survey.ts: the survey link (/survey?chavePesquisa=)"),
      field("scheduleType", {
        type: "select",
        choices: [
          { value: "disabled", label: "settingsOptions.scheduleType.disabled" },
          { value: "queue", label: "settingsOptions.scheduleType.queue" },
          { value: "company", label: "settingsOptions.scheduleType.company" },
        ],
      }, "domain/conversation.ts: opening hours and the out-of-hours message"),
      field("timezone", TEXT, "server/conversation/context.ts: the opening hours' clock"),
      sw("CheckMsgIsGroup", "server/channels/inbound.ts: group messages dropped"),
      sw("call", "server/conversation/calls.ts: calls rejected with a message"),
      field("chatBotType", {
        type: "select",
        choices: [
          { value: "text", label: "settingsOptions.chatBotType.text" },
          { value: "list", label: "settingsOptions.chatBotType.list" },
        ],
      }, "domain/conversation.ts: bot menus as WhatsApp lists"),
      sw("outsidemessage", "domain/conversation.ts: whether the out-of-hours message is sent at all (#41)"),
      sw("outsidequeue", "domain/conversation.ts: routing to a queue out of hours"),
    ],
  },
  {
    id: "messages",
    title: "settingsOptions.section.messages",
    global: false,
    controls: [
      sw("sendGreetingAccepted", "domain/ticket.ts: greeting on accept"),
      sw("sendTransferAlert", "server/usecases/ticket_effects.ts: transfer alert"),
      sw("sendFarewellWaitingTicket", "server/usecases/ticket_effects.ts: farewell of a waiting ticket"),
      sw("sendSignMessage", "server/api/messages.ts: signature"),
      sw("sendGreetingMessageOneQueues", "domain/conversation.ts: one-queue greeting"),
      sw("sendQueuePosition", "server/usecases/queue_position.ts: place in line"),
    ],
  },
  {
    id: "visibility",
    title: "settingsOptions.section.visibility",
    global: false,
    controls: [
      sw("viewclosed", "domain/visibility.ts: lists, reads and live events"),
      sw("viewgroups", "domain/visibility.ts: lists, reads and live events"),
      sw("allusersviewgroups", "domain/visibility.ts and server/realtime/audience.ts"),
      sw("viewnoti", "islands/shell/TopBar.tsx: the notification bell for plain users"),
      sw("viewppw", "domain/visibility.ts canPreviewPending: a plain user previews waiting tickets"),
    ],
  },
  {
    id: "bots",
    title: "settingsOptions.section.bots",
    global: false,
    controls: [
      field("urlTypebot", URL_TEXT),
      field("urlBotTypebot", URL_TEXT),
      field("tokenTypebot", SECRET),
      field("urlN8N", URL_TEXT),
      field("apiKeyN8N", SECRET),
    ],
  },
  {
    id: "global",
    title: "settingsOptions.section.global",
    global: true,
    controls: [
      sw("viewterms", "server/media/branding_files.ts: terms linked from sign-up"),
      sw("viewprivacy", "server/media/branding_files.ts: privacy linked from sign-up"),
      sw("viewregister", "server/api/signup.ts: sign-up link on the login page"),
      sw("allowregister", "server/api/signup.ts: self sign-up"),
      sw("allowupserts", "server/channels/contact_upserts.ts: the phone's contacts imported as they arrive"),
      field("trial", {
        type: "select",
        choices: ["1", "2", "3", "4", "5", "6", "7"].map((n) => ({ value: n, label: `settingsOptions.trial.${n}` as LocaleKey })),
      }, "server/api/signup.ts: trial due date"),
      field("wasupport", { type: "text", inputType: "tel" }),
    ],
  },
  {
    id: "email",
    title: "settingsOptions.section.email",
    global: true,
    controls: [
      field("emailsender", { type: "text", inputType: "email" }, "server/mail/mod.ts: sender"),
      field("sendgridapi", SECRET, "server/mail/mod.ts: SendGrid"),
      field("smtpHost", TEXT, "server/mail/mod.ts: SMTP"),
      field("smtpPort", { type: "text", inputType: "number" }, "server/mail/mod.ts: SMTP"),
      field("smtpUser", TEXT, "server/mail/mod.ts: SMTP login"),
      field("smtpPassword", SECRET, "server/mail/mod.ts: SMTP login"),
      sw("smtpSecure", "server/mail/mod.ts: SMTP over TLS"),
    ],
  },
  {
    id: "payments",
    title: "settingsOptions.section.payments",
    global: true,
    controls: [
      field("eficlientid", SECRET),
      field("eficlientsecret", SECRET),
      field("efichavepix", SECRET),
      field("mpaccesstoken", SECRET),
      field("stripeprivatekey", SECRET),
      field("asaastoken", SECRET),
      field("stripewebhooksecret", SECRET),
      field("mpwebhooksecret", SECRET),
      field("asaaswebhooktoken", SECRET),
      field("efiwebhooksecret", SECRET),
    ],
  },
];

/** The value a switch stores. */
export function switchValue(on: boolean): string {
  return on ? "enabled" : "disabled";
}
