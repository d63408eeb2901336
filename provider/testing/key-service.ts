/**
 * The key service of an emulated stack. Its secrets (the token in its config, the passwords in its
 * state) are encrypted, as every stack's are, with a data key that Pulumi keeps in the stack's
 * config, itself encrypted by a key that lives here, in the test's process, and dies with the
 * stack. The CLI reaches it as Vault's transit API (Pulumi's `hashivault://` secrets provider:
 * `PUT /v1/transit/encrypt/<key>` and `…/decrypt/<key>`).
 *
 * Why not a passphrase: the passphrase provider derives its key with a million rounds of PBKDF2 in
 * every CLI process that reads or writes a secret, about 0.3 s of CPU each; an emulated stack's
 * `up` and `destroy` make seven such calls. Asking this service costs a millisecond.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { answerJson, readJson, serveLoopback, type LoopbackService } from "./loopback";

/** The name of the service's key (the secrets provider's URL names it). */
const KEY_NAME = "emulated-stack";
/** How Vault marks its ciphertexts (version 1 of the key). */
const CIPHERTEXT_PREFIX = "vault:v1:";
const TRANSIT = new RegExp(`^/v1/transit/(encrypt|decrypt)/${KEY_NAME}$`);

export interface KeyService extends LoopbackService {
  /** The stack's secrets provider (`pulumi stack init --secrets-provider`). */
  readonly secretsProvider: string;
  /** What every CLI call of the stack needs to reach the service. */
  readonly env: Record<string, string>;
}

function encrypt(key: Buffer, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return CIPHERTEXT_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
}

/** The plaintext, or undefined when `ciphertext` was not sealed by this key. */
function decrypt(key: Buffer, ciphertext: string): Buffer | undefined {
  if (!ciphertext.startsWith(CIPHERTEXT_PREFIX)) return undefined;
  const raw = Buffer.from(ciphertext.slice(CIPHERTEXT_PREFIX.length), "base64");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  } catch {
    return undefined;
  }
}

export async function startKeyService(): Promise<KeyService> {
  const key = randomBytes(32);
  const token = randomBytes(16).toString("hex");
  const service = await serveLoopback((request, response) => {
    const route = TRANSIT.exec(request.url ?? "");
    if (!route || (request.method !== "PUT" && request.method !== "POST"))
      return answerJson(response, 404, { errors: ["no handler for route"] });
    if (request.headers["x-vault-token"] !== token) return answerJson(response, 403, { errors: ["permission denied"] });
    void readJson(request).then((body) => {
      const { plaintext, ciphertext } = (body ?? {}) as { plaintext?: unknown; ciphertext?: unknown };
      if (route[1] === "encrypt") {
        if (typeof plaintext !== "string") return answerJson(response, 400, { errors: ["missing plaintext to encrypt"] });
        return answerJson(response, 200, { data: { ciphertext: encrypt(key, Buffer.from(plaintext, "base64")) } });
      }
      const opened = typeof ciphertext === "string" ? decrypt(key, ciphertext) : undefined;
      if (!opened) return answerJson(response, 400, { errors: ["invalid ciphertext: unable to decrypt"] });
      return answerJson(response, 200, { data: { plaintext: opened.toString("base64") } });
    });
  });
  return {
    ...service,
    secretsProvider: `hashivault://${KEY_NAME}`,
    env: { VAULT_SERVER_URL: service.url, VAULT_SERVER_TOKEN: token },
  };
}
