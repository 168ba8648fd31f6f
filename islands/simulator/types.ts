/** Client-side shapes of the simulated phone: exactly what GET /simulator… answers (type-only imports). */
import type { SessionStatus } from "../../domain/channel.ts";
export type { MenuOption, PhoneChat, PhoneMessage, PhoneThread } from "../../domain/phone_view.ts";

/** One simulated connection (a phone) as GET /simulator lists it. */
export interface PhoneInfo {
  id: number;
  name: string;
  number: string;
  status: SessionStatus;
  connected: boolean;
  /** The QR text to scan, "" when none. */
  qrcode: string;
  /** Messages posted while the phone was offline, waiting for the session. */
  pending: number;
}

/** GET /simulator. */
export interface PhonesResponse {
  phones: PhoneInfo[];
}

/** What the phone sends as its customer (POST /simulator/{id}/inbound, without `from` and `name`). */
export interface PhoneSend {
  body: string;
  mediaType?: string;
  mediaBase64?: string;
  mimetype?: string;
  filename?: string;
}
