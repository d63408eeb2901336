/**
 * An emulated stack's key service (`provider/testing/key-service.ts`), called as Pulumi's
 * `hashivault://` secrets provider calls Vault's transit API: what it encrypts it decrypts, each
 * ciphertext differs, a wrong token or another key's ciphertext is refused, and the stack's
 * secrets provider and environment name it.
 */
import { startKeyService, type KeyService } from "../../../provider/testing/key-service";

let keys: KeyService;
beforeEach(async () => {
  keys = await startKeyService();
});
afterEach(() => keys.close());

/** A transit call, as Vault's client makes it: `PUT /v1/transit/<op>/<key>` with the token in `X-Vault-Token`. */
async function transit(op: "encrypt" | "decrypt", body: object, token = keys.env.VAULT_SERVER_TOKEN!) {
  const response = await fetch(`${keys.env.VAULT_SERVER_URL}/v1/transit/${op}/emulated-stack`, {
    method: "PUT",
    headers: { "x-vault-token": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, string>; errors?: string[] } };
}

test("what it encrypts it decrypts, and no two ciphertexts are alike", async () => {
  const plaintext = Buffer.from("a data key of 32 bytes, say.....").toString("base64");
  const first = await transit("encrypt", { plaintext });
  const second = await transit("encrypt", { plaintext });
  expect(first.status).toBe(200);
  expect(first.body.data!.ciphertext).toMatch(/^vault:v1:/);
  expect(first.body.data!.ciphertext).not.toBe(second.body.data!.ciphertext);
  expect(first.body.data!.ciphertext).not.toContain(plaintext);
  expect(await transit("decrypt", { ciphertext: first.body.data!.ciphertext })).toEqual({ status: 200, body: { data: { plaintext } } });
});

test("a wrong token, another key's ciphertext and an unknown route are refused", async () => {
  const { body } = await transit("encrypt", { plaintext: "c2VjcmV0" });
  expect((await transit("decrypt", { ciphertext: body.data!.ciphertext }, "not-the-token")).status).toBe(403);
  const other = await startKeyService();
  try {
    const foreign = await fetch(`${other.env.VAULT_SERVER_URL}/v1/transit/decrypt/emulated-stack`, {
      method: "PUT",
      headers: { "x-vault-token": other.env.VAULT_SERVER_TOKEN! },
      body: JSON.stringify({ ciphertext: body.data!.ciphertext }),
    });
    expect(foreign.status).toBe(400);
  } finally {
    await other.close();
  }
  expect((await fetch(`${keys.url}/v1/transit/encrypt/another-key`, { method: "PUT", body: "{}" })).status).toBe(404);
});

test("the stack's secrets provider and environment name the service", () => {
  expect(keys.secretsProvider).toBe("hashivault://emulated-stack");
  expect(keys.env).toEqual({ VAULT_SERVER_URL: keys.url, VAULT_SERVER_TOKEN: expect.stringMatching(/^[0-9a-f]{32}$/) });
});
