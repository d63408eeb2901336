/**
 * The database's SSL CA certificate: a real self-signed CA (ECDSA P-256, basic constraints
 * CA:true, key usage keyCertSign and cRLSign, a subject key identifier), valid ten years, subject
 * `CN=<uuid> Project CA` like the recorded one. The API returns the PEM text base64-encoded
 * (`fixtures/database_mysql.ssl.current.json`). The private key is thrown away: nothing here
 * issues server certificates, clients only need a CA they can parse and pin.
 */
import { randomBytes, randomUUID, webcrypto } from "node:crypto";
import type * as X509 from "@peculiar/x509";

/**
 * The certificate library, loaded when the first database is made: it and its ASN.1 modules are a
 * tenth of the emulator's start, and most emulators (every test file starts one) make no database.
 */
function x509Library(): typeof X509 {
  // @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata polyfill first.
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded when first needed; the types come from the import above */
  require("reflect-metadata");
  return require("@peculiar/x509") as typeof X509;
  /* eslint-enable @typescript-eslint/no-require-imports */
}

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const TEN_YEARS_MS = 10 * 365.25 * 24 * 3600 * 1000;

/** A new CA certificate, as the API returns it: base64 of the PEM text. */
export async function createCaCertificate(nowMs: number): Promise<string> {
  const x509 = x509Library();
  // Node's WebCrypto, handed to the library explicitly (no global provider is set).
  type Provider = Parameters<typeof X509.X509CertificateGenerator.createSelfSigned>[1];
  type Keys = Parameters<typeof X509.X509CertificateGenerator.createSelfSigned>[0]["keys"];
  const crypto = webcrypto as unknown as Provider;
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as unknown as Keys;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: `01${randomBytes(15).toString("hex")}`,
      name: `CN=${randomUUID()} Project CA`,
      notBefore: new Date(nowMs),
      notAfter: new Date(nowMs + TEN_YEARS_MS),
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return Buffer.from(`${certificate.toString("pem")}\n`).toString("base64");
}
