/** Password hashing with argon2id (salted, slow by design; LIBRARIES.md: 70–140 ms a hash). */
import { hash, verify } from "@node-rs/argon2";

/** Cheaper parameters for test servers only (BALCAO_PASSWORD_HASH=fast), never in production. */
const FAST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

export function hashPassword(password: string, cost: "strong" | "fast"): Promise<string> {
  return hash(password, cost === "fast" ? FAST : undefined);
}

/** False for a wrong password or a malformed hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
