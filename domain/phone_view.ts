/**
 * The simulated customer's phone (issue #37, /simulator): what its screens show and what it
 * sends. A chat is one customer's conversation with the company's number, as the customer's
 * WhatsApp shows it: the customer's own messages on the right with their ticks (delivered,
 * blue once the company read them), the company's on the left with the receipt the phone
 * gave (delivered, read), the bot's menus as buttons to tap. Pure; importable by islands.
 */
import { z } from "zod";
import type { MenuList } from "./bot_walker.ts";
import type { MessageView } from "./message.ts";
import { MAX } from "./text.ts";

/** One chat of the phone's chat list. */
export interface PhoneChat {
  number: string;
  name: string;
  /** The last message's text as a list preview ("" when the chat is empty: an address-book entry). */
  lastMessage: string;
  /** ISO time of the last message, or null. */
  lastAt: string | null;
  /** The company's messages the phone has not read yet. */
  unread: number;
}

/** An option of a bot menu: what tapping it sends (`id`) and its label. */
export interface MenuOption {
  id: string;
  title: string;
  description?: string;
}

/** A message as the phone shows it: the stored message's view, from the customer's side. */
export interface PhoneMessage extends MessageView {
  /** Written by the phone's owner (the customer). */
  mine: boolean;
  /** The bot's menu in this message, to tap (a list message's rows, or a text menu's numbered lines). */
  menu: { button: string | null; options: MenuOption[] } | null;
}

/** GET /simulator/{id}/chats/{number}: the contact as the company knows it and the thread. */
export interface PhoneThread {
  number: string;
  name: string;
  messages: PhoneMessage[];
}

/** A text menu line as the bot writes it: "*1* - Suporte" (domain/bot_walker.ts menuText). */
const MENU_LINE = /^\*(\d{1,2})\*\s*-\s*(.+)$/;

/**
 * The menu a company message offers: its list (when sent as a WhatsApp list), else the
 * numbered lines of a text menu ("*1* - Suporte"), else null. A survey's options ("*5* -
 * Ótimo") read the same way, so a rating is one tap too.
 */
export function menuOf(body: string, list?: MenuList): PhoneMessage["menu"] {
  if (list) {
    return {
      button: list.button,
      options: list.sections.flatMap((s) => s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description ? { description: r.description } : {}) }))),
    };
  }
  const options: MenuOption[] = [];
  for (const line of body.split("\n")) {
    const match = MENU_LINE.exec(line.trim());
    if (match) options.push({ id: match[1], title: match[2].trim() });
  }
  return options.length >= 2 ? { button: null, options } : null;
}

/**
 * The ticks of the customer's own message: 3 (delivered, grey) until the company read it, 4
 * (blue) after. `unreadByCompany` is how many of the customer's latest messages the company
 * has not read yet (the ticket's unread count); `fromEnd` is this message's place among the
 * customer's messages counted from the newest (0 = newest).
 */
export function ownTicks(fromEnd: number, unreadByCompany: number): 3 | 4 {
  return fromEnd < unreadByCompany ? 3 : 4;
}

/** The body of a location as WhatsApp channels store it: the map link, then `|label`. */
export function locationBody(latitude: number, longitude: number, label = ""): string {
  const url = `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17&hl=pt-BR`;
  return label.trim() ? `${url}|${label.trim()}` : url;
}

/** POST /simulator/{id}/read body: the phone opens the chat with `number` (read receipts). */
export const PhoneReadInput = z.object({
  number: z.string().trim().max(MAX.phone, "Invalid number").regex(/^\+?[\d\s()-]{8,20}$/, "Invalid number"),
});
export type PhoneReadInput = z.infer<typeof PhoneReadInput>;

/** The new chat form: a customer's name and number (digits, with or without the country). */
export const PhoneNewChat = z.object({
  name: z.string().trim().min(1, "Required").max(80),
  number: PhoneReadInput.shape.number,
});
export type PhoneNewChat = z.infer<typeof PhoneNewChat>;

/** A shared location: where, and an optional place name. */
export const PhoneLocation = z.object({
  latitude: z.coerce.number().min(-90).max(90),
  longitude: z.coerce.number().min(-180).max(180),
  label: z.string().trim().max(200).default(""),
});
export type PhoneLocation = z.infer<typeof PhoneLocation>;
