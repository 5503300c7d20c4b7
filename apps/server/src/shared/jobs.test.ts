import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness";
import { startJobs } from "./jobs";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the scheduler", () => {
  it("leases a job unless told the job leases its own parts", async () => {
    const runs = { leased: 0, free: 0 };
    const jobs = [
      { name: "test.leased", everyMs: 60_000, firstDelayMs: 0, run: async () => void runs.leased++ },
      { name: "test.free", everyMs: 60_000, firstDelayMs: 0, lease: false, run: async () => void runs.free++ },
    ];
    const stopA = startJobs(t.ctx, jobs);
    await sleep(200);
    const stopB = startJobs(t.ctx, jobs);
    await sleep(200);
    await stopB();
    await stopA();
    expect(runs.free).toBe(2);
    expect(runs.leased).toBeGreaterThanOrEqual(1);
    const leases = await t.db.selectFrom("job_leases").select("name").where("name", "like", "test.%").execute();
    expect(leases.map((l) => l.name)).toEqual(["test.leased"]);
  });

  it("keeps a fixed rate: the next run starts an interval after the last one started", async () => {
    const starts: number[] = [];
    const stop = startJobs(t.ctx, [
      {
        name: "test.rate",
        everyMs: 400,
        firstDelayMs: 0,
        lease: false,
        fixedRate: true,
        run: async () => {
          starts.push(Date.now());
          await sleep(300);
        },
      },
    ]);
    await sleep(1_300);
    await stop();
    expect(starts.length).toBeGreaterThanOrEqual(2);
    // A run of 300 ms every 400 ms: counted from the end of a run, starts would be 700 ms apart.
    const gaps = starts.slice(1).map((s, i) => s - starts[i]);
    expect(Math.min(...gaps)).toBeLessThan(650);
  });
});
