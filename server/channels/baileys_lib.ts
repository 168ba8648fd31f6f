/**
 * Baileys itself, imported on first use rather than with the server: its module graph
 * (protobufs, libsignal, pino) costs ~48 MB of RSS, which a server whose connections are
 * all simulator or Evolution never needs. The runtime caches the module after the first load.
 */
export type Baileys = typeof import("@whiskeysockets/baileys");

/**
 * The Baileys module: its CommonJS `module.exports` (`default` is makeWASocket), which a
 * dynamic import hands over as the namespace's `default`.
 */
export async function loadBaileys(): Promise<Baileys> {
  return (await import("@whiskeysockets/baileys")).default as unknown as Baileys;
}

/** Baileys' `DisconnectReason.loggedOut`: the phone removed this device. */
export const LOGGED_OUT = 401;
