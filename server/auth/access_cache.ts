/**
 * Verified access tokens, remembered until they expire. Verifying an HS256 signature costs
 * a key import and an async HMAC on every request (about a third of a `GET /tickets` in the
 * inbox benchmark); a token's verdict cannot change before its `exp`, so one verification per
 * token is enough. Only tokens with a valid signature are remembered (failures are not, so
 * junk cannot fill the cache), and the cache is bounded: the oldest entries go first.
 * One per server (on deps), never a module global.
 */
import { type AccessClaims, type TokenFailure, verifyAccess } from "./tokens.ts";

export class AccessTokenVerifier {
  readonly #secret: string;
  readonly #max: number;
  readonly #verified = new Map<string, AccessClaims>();

  constructor(secret: string, max = 10_000) {
    this.#secret = secret;
    this.#max = max;
  }

  /** The token's claims, or why it was refused (`expired` asks the client to refresh). */
  async verify(token: string, nowMs: number): Promise<AccessClaims | TokenFailure> {
    const known = this.#verified.get(token);
    if (known) {
      if (known.exp > Math.floor(nowMs / 1000)) return known;
      this.#verified.delete(token);
      return "expired";
    }
    const claims = await verifyAccess(this.#secret, token);
    if (typeof claims === "object") {
      if (this.#verified.size >= this.#max) {
        this.#verified.delete(this.#verified.keys().next().value!);
      }
      this.#verified.set(token, claims);
    }
    return claims;
  }
}
