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

/**
 * Hashes of a password nobody has, one per cost. Login verifies against one when the e-mail
 * is unknown, so an unknown e-mail takes as long as a wrong password (no user enumeration
 * by timing).
 */
const NO_USER_HASH = {
  strong: "$argon2id$v=19$m=19456,t=2,p=1$7kOEn0LM2pCl6i8dIcUZfQ$Icbz9zHaWXL/Onj4VRYvAQR/51Q3ig0NhkWFk3Of+/M",
  fast: "$argon2id$v=19$m=1024,t=1,p=1$mh2PV2HcUnNvNBkQGNHoPA$TKeYGqODOIK4fL5pXHfyd3HWbzxzaLjAwo5i1r6Hwes",
} as const;

/** Verifies `password` against `passwordHash`, or spends the same time and fails when there is none. */
export async function verifyOrBurn(
  passwordHash: string | undefined,
  password: string,
  cost: "strong" | "fast",
): Promise<boolean> {
  if (passwordHash === undefined) {
    await verifyPassword(NO_USER_HASH[cost], password);
    return false;
  }
  return await verifyPassword(passwordHash, password);
}
