import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id of @node-rs/argon2 (a const enum, which isolated modules cannot read). */
const ARGON2ID = 2;

/** Passwords of members: argon2id (OWASP's minimum parameters: 19 MiB, 2 passes, 1 lane). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export const hashPassword = (password: string) => hash(password, OPTIONS);
export const verifyPassword = (stored: string, password: string) => verify(stored, password).catch(() => false);

/** Verified against when no member has the address, so an unknown address takes as long as a wrong password. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword('no member has this password'));
