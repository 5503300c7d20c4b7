import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, for the API tests and
 * the browser journey. Its sign-in page is a small form: an account name (the ID token's `sub`)
 * and 允许 / 拒绝 (拒绝 answers error=access_denied), so tests sign in as anyone they like.
 */
export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

const page = (uid: string, client: string) => `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>测试身份提供方</title></head>
<body><h1>测试身份提供方</h1><p>应用 ${client} 请求登录</p>
<form method="post" action="/interaction/${uid}">
<label>账号 <input name="account" autocomplete="off"></label>
<button type="submit" name="decision" value="allow">允许</button>
<button type="submit" name="decision" value="deny">拒绝</button>
</form></body></html>`;

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

export async function startTestOidcProvider(opts: {
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  port?: number;
}): Promise<TestOidcProvider> {
  const clientId = opts.clientId ?? "burrow-test";
  const clientSecret = opts.clientSecret ?? "burrow-test-secret-0123456789";
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [opts.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], profile: ["nickname", "name"] },
    // The profile claims in the ID token itself (Burrow reads the nickname from it).
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, nickname: `测试${sub}`.slice(0, 20), name: sub }),
    }),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: ["burrow-test-oidc-cookie-key"] },
  });
  const callback = provider.callback();
  server.on("request", async (req, res) => {
    try {
      const m = /^\/interaction\/([\w-]+)$/.exec(req.url ?? "");
      if (!m) return callback(req, res);
      const details = await provider.interactionDetails(req, res);
      if (req.method === "GET") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(page(details.uid, String(details.params.client_id)));
      }
      const form = await readForm(req);
      if (form.get("decision") !== "allow") {
        return provider.interactionFinished(
          req,
          res,
          { error: "access_denied", error_description: "the user refused" },
          { mergeWithLastSubmission: false },
        );
      }
      const accountId = (form.get("account") ?? "").trim() || "someone";
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(err));
    }
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser between the provider's authorization URL and the redirect back to Burrow:
 * follows redirects with the provider's cookies, signs in as `account` (or refuses), and answers
 * the URL the provider sent the browser to (PUBLIC_URL/callback/auth?code=…&state=…).
 */
export async function providerSignIn(authUrl: string, account: string | null): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  let url = new URL(authUrl);
  let init: RequestInit = {};
  const origin = url.origin;
  for (let hops = 0; hops < 12; hops++) {
    if (url.origin !== origin) return url;
    const res = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: cookieHeader() } });
    keep(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location") ?? "", url);
      init = {};
      continue;
    }
    if (res.status === 200 && url.pathname.startsWith("/interaction/")) {
      await res.text();
      const form = new URLSearchParams({ account: account ?? "", decision: account === null ? "deny" : "allow" });
      init = {
        method: "POST",
        body: form.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
      continue;
    }
    throw new Error(`provider answered ${res.status} at ${url}: ${(await res.text()).slice(0, 300)}`);
  }
  throw new Error("too many redirects at the provider");
}
