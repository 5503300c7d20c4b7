import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { afterAll, beforeAll } from "vitest";
import { createTestApp, type TestApp } from "./harness";

/*
 * A software WebAuthn authenticator for API tests (passkeys): an ES256 key from node:crypto,
 * "none" attestation, CBOR through the library's own encoder. It answers the options the server
 * hands out as a browser would (RegistrationResponseJSON / AuthenticationResponseJSON), and lets a
 * test change what a real one never would: the origin, the RP ID, the counter.
 */

const b64u = (b: Uint8Array | Buffer | string) => Buffer.from(b).toString("base64url");
const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Overrides {
  origin?: string;
  rpId?: string;
  challenge?: string;
  /** the signature counter to report (default: one more than the last) */
  counter?: number;
  /** user verification (default true) */
  uv?: boolean;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cose: Uint8Array;
  counter = 0;
  /** the user handle the server gave at registration (answered with each assertion) */
  userHandle: string | undefined;

  constructor(readonly origin: string) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: "jwk" });
    this.cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x as string, "base64url")],
        [-3, Buffer.from(jwk.y as string, "base64url")],
      ]),
    );
  }

  get id(): string {
    return b64u(this.credentialId);
  }

  private clientData(type: string, challenge: string, o: Overrides): Buffer {
    return Buffer.from(
      JSON.stringify({
        type,
        challenge: o.challenge ?? challenge,
        origin: o.origin ?? this.origin,
        crossOrigin: false,
      }),
    );
  }

  /** navigator.credentials.create() over the server's registration options. */
  create(options: Record<string, unknown>, o: Overrides = {}) {
    const opts = options as { challenge: string; rp: { id: string }; user: { id: string } };
    this.userHandle = opts.user.id;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(o.rpId ?? opts.rp.id),
      Buffer.from([FLAG_UP | FLAG_UV | FLAG_AT]),
      counter,
      Buffer.alloc(16), // AAGUID: none
      idLen,
      this.credentialId,
      Buffer.from(this.cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64u(this.clientData("webauthn.create", opts.challenge, o)),
        attestationObject: b64u(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get() over the server's authentication options. */
  get(options: Record<string, unknown>, o: Overrides = {}) {
    const opts = options as { challenge: string; rpId: string };
    const next = o.counter ?? this.counter + 1;
    this.counter = Math.max(this.counter, next);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(next);
    const authData = Buffer.concat([
      sha256(o.rpId ?? opts.rpId),
      Buffer.from([FLAG_UP | (o.uv === false ? 0 : FLAG_UV)]),
      counter,
    ]);
    const clientDataJSON = this.clientData("webauthn.get", opts.challenge, o);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        ...(this.userHandle && { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
    };
  }
}

/** The relying party's origin of the passkey suites (their PUBLIC_URL). */
export const PASSKEY_ORIGIN = "https://console.example.com";

/** One app per file whose PUBLIC_URL is PASSKEY_ORIGIN; `get()` gives it once the file's beforeAll ran. */
export function passkeySuite(): { get: () => TestApp } {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: `${PASSKEY_ORIGIN}/` });
  });
  afterAll(() => t?.close());
  return {
    get: () => {
      if (!t) throw new Error("passkeySuite: the app is built in beforeAll");
      return t;
    },
  };
}
