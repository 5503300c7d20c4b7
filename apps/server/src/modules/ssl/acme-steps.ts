import type { SslOrderView, SslStep } from "@burrow/contract";
import type { AppContext } from "../../context";
import { DAY_MS } from "../../shared/time";
import { acme, acmeClient, acmeErrorText } from "./acme";
import { lookupTxt } from "./dns";
import { checkUpload } from "./pem";
import { openKey, orderPurpose } from "./secret";
import { acmeRecordName, fmtDay, recordOf } from "./ssl.presenter";
import { ENDED } from "./ssl.repository";
import { holds } from "./ssl.service";
import type { SslOrderRow } from "./ssl.table";
import { storeCertificate } from "./uploads";

/*
 * The ACME state machine: waiting → validating → finalizing → issued (or failed), one step
 * function per state, run by the job (advanceDueIssues) and by the customer's "check"/"start".
 */

/** An issue waiting for its record this long fails (Let's Encrypt's orders live 7 days). */
const WAIT_LIMIT_MS = 7 * DAY_MS;
/** One advancer per issue for at most this long (a crashed one frees it after that). */
const LEASE_MS = 120_000;

export function historyWith(
  r: Pick<SslOrderRow, "history">,
  step: SslStep,
  at: string,
  message: string | null,
): string {
  const h = JSON.parse(r.history) as SslOrderView["history"];
  h.push({ step, at, message });
  return JSON.stringify(h);
}

/** Takes the issue for one advance; false when another advancer holds it or it has ended. */
async function claim(ctx: AppContext, id: number, now: Date): Promise<boolean> {
  const r = await ctx.db
    .updateTable("ssl_orders")
    .set({ lease_until: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where("id", "=", id)
    .where("step", "not in", ENDED)
    .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now.toISOString())]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Seconds to the next DNS look-up: every 15 s for 5 minutes, then every minute, after an hour every 10 minutes. */
function nextPoll(checks: number, interval: number): number {
  if (checks < 20) return Math.max(interval, 15);
  if (checks < 80) return 60;
  return 600;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One advance of one issue: the row as last saved, and how to save a step. */
interface Run {
  ctx: AppContext;
  now: Date;
  manual: boolean;
  row: SslOrderRow;
  /** writes `set` (and `step` with its history line when it changes); `row` follows */
  save(set: Partial<SslOrderRow>, step?: SslStep): Promise<void>;
}

/** What a step function answers: go on to the next state now, or stop for this run. */
type Next = boolean;

/**
 * waiting: DNS-01 goes on once the TXT record is seen through the configured resolvers; HTTP-01
 * once the customer says the file is in place (`manual`). Then the CA is asked to validate.
 */
async function whenRecordReady(r: Run, client: acme.Client): Promise<Next> {
  const { ctx, now, row } = r;
  if (now.getTime() - new Date(row.created_at).getTime() > WAIT_LIMIT_MS) {
    await r.save({ message: "7 天内未检测到验证记录，本次签发已失效，请重新申请", next_check_at: null }, "failed");
    return false;
  }
  if (row.challenge === "dns-01") {
    const name = acmeRecordName(row.domain);
    const found = await lookupTxt(ctx, name);
    if (!found.values.includes(row.record_value)) {
      const seen =
        found.error ?? (found.values.length ? `查到的值：${found.values.join("、")}` : "没有查到任何 TXT 记录");
      await r.save({
        message: `尚未检测到正确的 TXT 记录 ${name}（${seen}），DNS 生效可能需要几分钟`,
        checks: row.checks + 1,
        next_check_at: new Date(
          now.getTime() + nextPoll(row.checks, ctx.config.SSL_CHECK_INTERVAL) * 1000,
        ).toISOString(),
      });
      return false;
    }
  } else if (!r.manual) {
    return false;
  }
  await client.completeChallenge({ url: row.challenge_url } as Parameters<acme.Client["completeChallenge"]>[0]);
  await r.save(
    { message: "记录已就绪，证书颁发机构正在验证", checks: row.checks + 1, next_check_at: now.toISOString() },
    "validating",
  );
  return true;
}

/** validating: the CA's authorization, polled a few times; valid goes on to finalizing. */
async function whenValidated(r: Run, client: acme.Client): Promise<Next> {
  const { row } = r;
  let authz: acme.Authorization | undefined;
  for (let i = 0; i < 5; i++) {
    [authz] = await client.getAuthorizations({ authorizations: [row.authz_url] } as acme.Order);
    if (authz.status !== "pending") break;
    await sleep(1000);
  }
  if (authz?.status === "valid") {
    await r.save({ message: "验证通过，正在签发证书", next_check_at: new Date().toISOString() }, "finalizing");
    return true;
  }
  if (authz?.status === "pending") {
    await r.save({ message: "证书颁发机构仍在验证", next_check_at: new Date(Date.now() + 10_000).toISOString() });
    return false;
  }
  const failedCh = authz?.challenges.find((c) => c.url === row.challenge_url) as
    | { error?: { detail?: string } }
    | undefined;
  await r.save(
    {
      message: `证书颁发机构验证失败：${failedCh?.error?.detail ?? authz?.status ?? "未知原因"}`,
      next_check_at: null,
    },
    "failed",
  );
  return false;
}

/** finalizing: a CSR for the order's own key; the certificate, once valid, becomes the domain's. */
async function finalize(r: Run, client: acme.Client): Promise<Next> {
  const { ctx, row } = r;
  let order = await client.getOrder({ url: row.order_url } as acme.Order);
  const keyPem = await openKey(ctx, row.key_enc, orderPurpose(row.uid, row.domain));
  if (order.status === "ready") {
    const [, csr] = await acme.crypto.createCsr({ commonName: row.domain, altNames: [row.domain] }, keyPem);
    order = await client.finalizeOrder(order, csr);
  }
  for (let i = 0; i < 5 && order.status === "processing"; i++) {
    await sleep(1000);
    order = await client.getOrder({ url: row.order_url } as acme.Order);
  }
  if (order.status === "processing") {
    await r.save({ message: "证书颁发机构正在签发", next_check_at: new Date(Date.now() + 10_000).toISOString() });
    return false;
  }
  if (order.status !== "valid") {
    await r.save({ message: `签发失败：订单状态为 ${order.status}`, next_check_at: null }, "failed");
    return false;
  }
  const chain = await client.getCertificate(order);
  const checked = checkUpload({ certificate: chain, privateKey: keyPem, domain: row.domain, now: new Date() });
  const notice = row.renewal
    ? `已于 ${fmtDay(new Date().toISOString())} 自动续期，新证书到期时间 ${fmtDay(checked.notAfter)}；请重新下载证书，替换 frpc 使用的文件`
    : null;
  const cert = await storeCertificate(ctx, row.uid, row.domain, "acme", checked, notice, new Date(), !!row.renewal);
  await r.save(
    { cert_id: cert.id, message: `证书已签发，到期时间 ${fmtDay(checked.notAfter)}`, next_check_at: null },
    "issued",
  );
  return true;
}

/** The states a run can move an issue out of, in order, with their step function. */
const STEPS: [SslStep, (r: Run, client: acme.Client) => Promise<Next>][] = [
  ["waiting", whenRecordReady],
  ["validating", whenValidated],
  ["finalizing", finalize],
];

/**
 * Advances one issue as far as it can go now (`manual`: the customer pressed "check"/"start").
 * waiting → (DNS-01: the TXT record is seen through the configured resolvers; HTTP-01: the
 * customer says the file is in place) the CA is asked to validate → validating → the CA says
 * valid → finalizing (a CSR for the order's own key) → issued (the certificate is stored as the
 * domain's certificate). Each run polls the CA a few times (it usually answers in seconds), then
 * leaves the rest to the next run. Errors end the issue as failed with the CA's reason.
 */
export async function advanceIssue(ctx: AppContext, id: number, opts: { manual?: boolean; now?: Date } = {}) {
  const now = opts.now ?? new Date();
  if (!(await claim(ctx, id, now))) return;
  const row = await ctx.db.selectFrom("ssl_orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const run: Run = {
    ctx,
    now,
    manual: opts.manual ?? false,
    row,
    save: async (set, step) => {
      const at = new Date().toISOString();
      const patch: Partial<SslOrderRow> = { ...set, updated_at: at };
      if (step && step !== run.row.step) {
        patch.step = step;
        patch.history = historyWith(run.row, step, at, set.message ?? null);
      }
      await ctx.db.updateTable("ssl_orders").set(patch).where("id", "=", id).execute();
      run.row = { ...run.row, ...patch };
    },
  };
  try {
    if (!(await holds(ctx, row.uid, row.domain))) {
      await run.save({ message: `${row.domain} 已不是你已验证的域名，签发中止`, next_check_at: null }, "failed");
      return;
    }
    const client = await acmeClient(ctx, row.directory);
    for (const [step, advance] of STEPS) {
      if (run.row.step === step && !(await advance(run, client))) break;
    }
  } catch (err) {
    const reason = (err as { field?: string }).field ? (err as Error).message : acmeErrorText(err);
    ctx.log.warn({ err, order: id }, "ssl: ACME step failed");
    await run.save({ message: `签发失败：${reason}`, next_check_at: null }, "failed");
  } finally {
    await ctx.db.updateTable("ssl_orders").set({ lease_until: null }).where("id", "=", id).execute();
    const last = run.row;
    if (last.renewal && last.cert_id && (last.step === "failed" || last.step === "waiting"))
      await renewalNotice(ctx, last);
  }
}

/** Tells the customer (on the certificate) what a renewal needs or why it failed. */
export async function renewalNotice(ctx: AppContext, row: SslOrderRow): Promise<void> {
  if (!row.cert_id) return;
  const rec = recordOf(row);
  const notice =
    row.step === "failed"
      ? `自动续期失败：${row.message ?? "未知原因"}。请在证书到期前重新签发`
      : row.challenge === "dns-01"
        ? `证书即将到期，已开始自动续期：请把 TXT 记录 ${rec?.name} 的值改为 ${rec?.value}，生效后自动完成`
        : `证书即将到期，已开始自动续期：请在 ${rec?.name} 放置新的验证文件，然后在续期记录上点击“开始验证”`;
  await ctx.db
    .updateTable("ssl_certificates")
    .set({ notice, notice_at: new Date().toISOString() })
    .where("id", "=", row.cert_id)
    .execute();
}

/** Job: advances every issue that is due (DNS-01 waiting for its record, validating, finalizing). */
export async function advanceDueIssues(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom("ssl_orders")
    .select("id")
    .where("step", "in", ["waiting", "validating", "finalizing"])
    .where("next_check_at", "<=", now.toISOString())
    .orderBy("next_check_at")
    .limit(50)
    .execute();
  for (const { id } of due) await advanceIssue(ctx, id, { now });
  return due.length;
}
